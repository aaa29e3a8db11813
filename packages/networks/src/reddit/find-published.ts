import type { AccountSession, LostAttempt, PublishedPost } from "@socialpub/core";
import { type ListedPost, readBackSince } from "../common/read-back.ts";
import { cannotReadBack, refusedReadBack } from "../common/read-back-refused.ts";
import { type RedditApiConfig, redditCall } from "./api.ts";
import { redditPermalink, splitPost } from "./publish.ts";

/*
 * The post a lost attempt may have made on Reddit, read back from the account's submitted listing
 * (GET /user/{name}/submitted?sort=new, newest first, with raw_json=1 so & < > come as they were
 * sent) back to `since`. A post is the attempt's when it is in the subreddit chosen at connect and
 * holds what the publish split the text into: the first line as its title, and the rest as a text
 * post's body or, when the rest is one web address, as a link post's URL. An image post keeps only
 * its title (the publish sends no body with an image), so it is matched by its title; the image is
 * Reddit's copy of an upload the lost attempt made, not something the retry can compare. A gallery
 * likewise. A post whose title and subreddit came from its options is looked for with those
 * (`findRedditSubmission`, from the publish's own saved step).
 */

const READ_BACK = {
  network: "reddit",
  name: "Reddit",
  why: "the account's grant does not let the server read its posts back to see whether it was made: connect the account again, which asks for the history scope",
} as const;

/** Reddit's largest page. */
const PAGE_SIZE = 100;
/** Three pages: an account that made 300 posts since the attempt is not looked through. */
const MAX_PAGES = 3;

interface Submitted {
  id?: unknown;
  title?: unknown;
  subreddit?: unknown;
  permalink?: unknown;
  created_utc?: unknown;
  is_self?: unknown;
  selftext?: unknown;
  url?: unknown;
  post_hint?: unknown;
  is_reddit_media_domain?: unknown;
  is_gallery?: unknown;
}

interface Listing {
  data?: { children?: { data?: Submitted }[]; after?: string | null };
}

export function findRedditPost(
  api: RedditApiConfig,
  account: AccountSession,
  lost: LostAttempt,
  signal: AbortSignal,
): Promise<PublishedPost | null> {
  const { title, body } = splitPost(lost.text);
  const subreddit = String(account.credentials.subreddit ?? "");
  return findRedditSubmission(api, account, { title, body, subreddit, since: lost.since }, signal);
}

/** What a submission was sent as: its title, its body (or link), where, and since when. */
export interface RedditSubmission {
  title: string;
  body: string;
  subreddit: string;
  since: number;
}

export async function findRedditSubmission(
  api: RedditApiConfig,
  account: AccountSession,
  sent: RedditSubmission,
  signal: AbortSignal,
): Promise<PublishedPost | null> {
  const token = String(account.credentials.access_token ?? "");
  const user = encodeURIComponent(String(account.credentials.username ?? ""));
  const subreddit = sent.subreddit.toLowerCase();
  const { title, body } = sent;
  // One string per post that says what it holds, the same for the attempt and for a post it made.
  const key = (postTitle: string, rest: string) => `${postTitle}\n${rest}`;
  const textOf = (post: Submitted): string | null => {
    if (typeof post.title !== "string" || String(post.subreddit ?? "").toLowerCase() !== subreddit)
      return null;
    if (post.is_self === true) return key(post.title, typeof post.selftext === "string" ? post.selftext : "");
    if (post.post_hint === "image" || post.is_reddit_media_domain === true || post.is_gallery === true)
      return key(post.title, body);
    return key(post.title, typeof post.url === "string" ? post.url : "");
  };
  return readBackSince<string>({
    network: "reddit",
    name: "Reddit",
    text: key(title, body),
    since: sent.since,
    maxPages: MAX_PAGES,
    async readPage(after) {
      const query = new URLSearchParams({ sort: "new", limit: String(PAGE_SIZE), raw_json: "1" });
      if (after !== null) query.set("after", after);
      const path = `/user/${user}/submitted?${query}`;
      const listing = (await redditCall(api, token, "GET", path, null, signal, true).catch(
        (error: unknown) => {
          throw refusedReadBack(READ_BACK, error);
        },
      )) as Listing | null;
      const children = listing?.data?.children;
      if (!Array.isArray(children)) throw cannotReadBack(READ_BACK);
      const posts = children.flatMap(({ data: post }): ListedPost[] =>
        post && typeof post.id === "string" && typeof post.permalink === "string"
          ? [
              {
                id: post.id,
                text: textOf(post),
                at: typeof post.created_utc === "number" ? post.created_utc * 1000 : Number.NaN,
                permalink: redditPermalink(post.permalink),
              },
            ]
          : [],
      );
      return { posts, next: listing?.data?.after ?? null };
    },
  });
}
