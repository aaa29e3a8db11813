import type { FakeAnswer } from "../../common/fake-server.ts";
import { googleError } from "./errors.ts";

/*
 * A channel's uploads playlist in the YouTube fake, as Google's reference gives it: the channel names
 * it in channels.list (`contentDetails.relatedPlaylists.uploads`, the channel's id with UU for UC), and
 * playlistItems.list (`part=snippet`, `playlistId`, `maxResults` 0 to 50, 5 unless asked, `pageToken`)
 * lists its videos newest first, each with its title, description, `publishedAt` and
 * `resourceId.videoId`, and `nextPageToken` while more remain. The channel's owner sees its private
 * videos there; anyone else only its public ones.
 */

/** A video as the uploads playlist shows it. */
export interface UploadedVideo {
  id: string;
  channelId: string;
  title: string;
  description: string;
  privacyStatus: string;
  /** When the upload's last byte was in (Unix ms). */
  publishedAt: number;
}

export const uploadsPlaylistOf = (channelId: string) => `UU${channelId.slice(2)}`;

export function listPlaylistItems(
  videos: readonly UploadedVideo[],
  query: URLSearchParams,
  channels: { viewer: string | null; exists(channelId: string): boolean },
): FakeAnswer {
  const parts = (query.get("part") ?? "").split(",").filter(Boolean);
  if (parts.length === 0) {
    return googleError(400, "required", "global", "Required parameter: part");
  }
  const unknownPart = parts.find((p) => p !== "snippet" && p !== "id");
  if (unknownPart) {
    return googleError(
      400,
      "unknownPart",
      "youtube.part",
      `This fake lists parts id and snippet, not ${unknownPart}.`,
    );
  }
  const playlistId = query.get("playlistId") ?? "";
  const channelId = playlistId.startsWith("UU") ? `UC${playlistId.slice(2)}` : null;
  if (!channelId || !channels.exists(channelId)) {
    return googleError(
      404,
      "playlistNotFound",
      "youtube.playlistItem",
      "The playlist identified with the request's playlistId parameter cannot be found.",
    );
  }
  const maxResults = Number(query.get("maxResults") ?? 5);
  if (!Number.isInteger(maxResults) || maxResults < 0 || maxResults > 50) {
    return googleError(
      400,
      "invalidValue",
      "youtube.parameter",
      "Invalid value for maxResults: it must be 0 to 50.",
    );
  }
  const owner = channelId === channels.viewer;
  const listed = videos
    .filter((v) => v.channelId === channelId && (owner || v.privacyStatus === "public"))
    .sort((a, b) => b.publishedAt - a.publishedAt);
  const start = Number(query.get("pageToken") ?? 0);
  if (!Number.isInteger(start) || start < 0 || start > listed.length) {
    return googleError(
      400,
      "invalidPageToken",
      "youtube.parameter",
      "The request specifies an invalid page token.",
    );
  }
  const page = listed.slice(start, start + maxResults);
  const next = start + maxResults < listed.length ? String(start + maxResults) : null;
  const items = page.map((v, i) => ({
    kind: "youtube#playlistItem",
    id: `${playlistId}.${v.id}`,
    ...(parts.includes("snippet") && {
      snippet: {
        publishedAt: new Date(v.publishedAt).toISOString(),
        channelId,
        title: v.title,
        description: v.description,
        playlistId,
        position: start + i,
        resourceId: { kind: "youtube#video", videoId: v.id },
        videoOwnerChannelId: channelId,
      },
    }),
  }));
  return {
    status: 200,
    json: {
      kind: "youtube#playlistItemListResponse",
      ...(next !== null && { nextPageToken: next }),
      ...(start > 0 && { prevPageToken: String(Math.max(0, start - maxResults)) }),
      pageInfo: { totalResults: listed.length, resultsPerPage: maxResults },
      items,
    },
  };
}
