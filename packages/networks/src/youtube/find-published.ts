import type { AccountSession, LostAttempt, PublishedPost } from "@socialpub/core";
import { asStored, type ListedPost, readBackSince } from "../common/read-back.ts";
import { cannotReadBack, refusedReadBack } from "../common/read-back-refused.ts";
import { type YouTubeApiConfig, youtubeGet } from "./api.ts";
import { youtubePermalink } from "./publish.ts";
import { videoText } from "./text.ts";

/*
 * The video a lost attempt may have made, read back from the channel's uploads. Every request of an
 * upload can be repeated without making a second video (opening a session makes none; the bytes go to
 * the session saved on the target, which says what it holds), so the only attempt looked for here is
 * one cut off before its session was saved: the server stopped while YouTube opened it. A video exists
 * only once its last byte is in, and no byte goes out before the session is saved, so none is expected;
 * the channel is asked all the same, rather than sending the post again on that reasoning alone.
 *
 * The uploads are the channel's uploads playlist (channels.list `contentDetails.relatedPlaylists.uploads`,
 * then playlistItems.list), newest first, the channel's private videos included for its owner, each
 * with its title, description and `publishedAt`: a read costs a unit of quota each. A video is the
 * attempt's when its title and description are those the adapter makes of the text (text.ts).
 */

/** The largest page playlistItems.list gives. */
const PAGE_SIZE = 50;
/** Two pages: a project's default quota uploads about six videos a day, for every channel together. */
const MAX_PAGES = 2;

interface ItemSnippet {
  title?: unknown;
  description?: unknown;
  publishedAt?: unknown;
  resourceId?: { videoId?: unknown };
}

interface PlaylistItems {
  items?: { snippet?: ItemSnippet }[];
  nextPageToken?: unknown;
}

const READ_BACK = {
  network: "youtube",
  name: "YouTube",
  why: "the server could not read the channel's uploads back to see whether the video was made; that needs the youtube.readonly scope",
} as const;

/** Title and description as one value to compare: neither holds a NUL. */
const asOne = (title: string, description: string) => `${asStored(title)}\u0000${asStored(description)}`;

export async function findVideo(
  api: YouTubeApiConfig,
  account: AccountSession,
  lost: LostAttempt,
  signal: AbortSignal,
): Promise<PublishedPost | null> {
  if (lost.text.trim() === "") {
    throw cannotReadBack({
      ...READ_BACK,
      why: "a video without text is titled by its file's name, which the server cannot look for",
    });
  }
  const token = String(account.credentials.access_token ?? "");
  const made = videoText(lost.text, "");
  const read = (path: string, query: Record<string, string>) =>
    youtubeGet(api, token, path, query, signal).catch((error: unknown) => {
      throw refusedReadBack(READ_BACK, error);
    });
  const channels = await read("/channels", { part: "contentDetails", mine: "true" });
  const [channel] = Array.isArray(channels.items) ? channels.items : [];
  const uploads = (channel as { contentDetails?: { relatedPlaylists?: { uploads?: unknown } } } | undefined)
    ?.contentDetails?.relatedPlaylists?.uploads;
  if (typeof uploads !== "string" || uploads === "") {
    throw cannotReadBack({
      ...READ_BACK,
      why: "YouTube named no uploads for the channel, so the video could not be looked for",
    });
  }
  return readBackSince<string>({
    network: "youtube",
    name: "YouTube",
    text: asOne(made.title, made.description),
    since: lost.since,
    maxPages: MAX_PAGES,
    async readPage(pageToken) {
      const query: Record<string, string> = {
        part: "snippet",
        playlistId: uploads,
        maxResults: String(PAGE_SIZE),
      };
      if (pageToken !== null) query.pageToken = pageToken;
      const answer = (await read("/playlistItems", query)) as PlaylistItems;
      if (!Array.isArray(answer.items)) throw cannotReadBack(READ_BACK);
      const posts = answer.items.flatMap(listed);
      const next =
        typeof answer.nextPageToken === "string" && answer.nextPageToken !== "" ? answer.nextPageToken : null;
      return { posts, next };
    },
  });
}

function listed(item: { snippet?: ItemSnippet }): ListedPost[] {
  const s: ItemSnippet = item.snippet ?? {};
  const videoId = s.resourceId?.videoId;
  if (typeof videoId !== "string") return [];
  const title = typeof s.title === "string" ? s.title : null;
  const description = typeof s.description === "string" ? s.description : "";
  return [
    {
      id: videoId,
      text: title === null ? null : asOne(title, description),
      at: typeof s.publishedAt === "string" ? Date.parse(s.publishedAt) : Number.NaN,
      permalink: youtubePermalink(videoId),
    },
  ];
}
