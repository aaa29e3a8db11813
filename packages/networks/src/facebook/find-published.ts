import type { AccountSession, LostAttempt, PublishedPost } from "@socialpub/core";
import { type ListedPost, readBackSince } from "../common/read-back.ts";
import { cannotReadBack, refusedReadBack } from "../common/read-back-refused.ts";
import { type FacebookApiConfig, graphCall } from "./api.ts";
import { facebookPermalink } from "./publish.ts";

/*
 * The post a lost attempt may have made on a Page, read back from the Page's own posts
 * (GET /{page-id}/posts, newest first, from `since` on: Graph's time-based `since`, then its cursors).
 * Every kind of post the adapter makes is matched by its text as Facebook keeps it: a feed post's
 * `message`, and a photo's caption or a video's description, which become the message of the post
 * that shows them. The photo or video itself is not compared: the Page's post names it by ids the lost
 * attempt never learned.
 */

const READ_BACK = {
  network: "facebook",
  name: "Facebook",
  why: "the server could not read the Page's posts back to see whether it was made; that needs the pages_read_engagement permission",
} as const;

/** Graph's largest page for a Page's posts. */
const PAGE_SIZE = 100;
/** Two pages: well over the 25 posts an hour the server makes for a Page. */
const MAX_PAGES = 2;

interface PostsAnswer {
  data?: { id?: unknown; message?: unknown; created_time?: unknown; permalink_url?: unknown }[];
  paging?: { cursors?: { after?: string }; next?: string };
}

export async function findFacebookPost(
  api: FacebookApiConfig,
  account: AccountSession,
  lost: LostAttempt,
  signal: AbortSignal,
): Promise<PublishedPost | null> {
  const token = String(account.credentials.access_token ?? "");
  const page = encodeURIComponent(String(account.credentials.page_id ?? ""));
  return readBackSince<string>({
    network: "facebook",
    name: "Facebook",
    text: lost.text,
    since: lost.since,
    maxPages: MAX_PAGES,
    async readPage(cursor) {
      const query = new URLSearchParams({
        fields: "id,message,created_time,permalink_url",
        limit: String(PAGE_SIZE),
        // Graph's since is in seconds; rounding down reads a little more, never less.
        since: String(Math.floor(lost.since / 1000)),
      });
      if (cursor !== null) query.set("after", cursor);
      const answer = (await graphCall(api, token, "GET", `/${page}/posts?${query}`, null, signal, true).catch(
        (error: unknown) => {
          throw refusedReadBack(READ_BACK, error);
        },
      )) as PostsAnswer | null;
      const data = answer?.data;
      if (!Array.isArray(data)) throw cannotReadBack(READ_BACK);
      const posts = data.flatMap((post): ListedPost[] =>
        typeof post.id === "string"
          ? [
              {
                id: post.id,
                text: typeof post.message === "string" ? post.message : null,
                at: typeof post.created_time === "string" ? Date.parse(post.created_time) : Number.NaN,
                permalink: permalinkOf(post.id, post.permalink_url),
              },
            ]
          : [],
      );
      // Graph gives a next page's address only while there is one.
      const after = answer?.paging?.next ? (answer.paging.cursors?.after ?? null) : null;
      return { posts, next: after };
    },
  });
}

/** The address Graph gives (a video's is relative to facebook.com), else the post's own. */
function permalinkOf(id: string, given: unknown): string {
  if (typeof given !== "string" || given === "") return facebookPermalink(id);
  try {
    return new URL(given, "https://www.facebook.com").toString();
  } catch {
    return facebookPermalink(id);
  }
}
