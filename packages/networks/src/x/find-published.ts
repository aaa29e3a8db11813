import type { AccountSession, LostAttempt, PublishedPost } from "@socialpub/core";
import { type ListedPost, readBackSince } from "../common/read-back.ts";
import { cannotReadBack, refusedReadBack } from "../common/read-back-refused.ts";
import { type XApiConfig, xCall } from "./api.ts";
import { fitX, xPermalink } from "./post-text.ts";
import { shownAs, type UrlEntity } from "./shown-text.ts";

/*
 * The post a lost attempt may have made on X, read back from the account's own timeline
 * (GET /2/users/{id}/tweets, newest first) from `since` on: X filters by start_time itself, so every
 * page read is made since the attempt could publish. X hands a post's text back as it shows it (t.co
 * links, HTML escapes, a media link), so a post is compared with the text sent as shown-text.ts reads
 * it. A post with media is matched by its text alone: the timeline names media by keys the attempt
 * never learned.
 *
 * A post this cannot recognise (X rewrote a link beyond what its entities give back) is sent again,
 * and X itself refuses a post identical to a recent one, so it still cannot appear twice.
 */

const READ_BACK = {
  network: "x",
  name: "X",
  why: "the server could not read the account's timeline back to see whether it was made; that needs the tweet.read and users.read scopes",
} as const;

/** X's largest page. */
const PAGE_SIZE = 100;
/** Five pages: X lets an account make 100 posts in 15 minutes, so this reaches back over an hour. */
const MAX_PAGES = 5;

interface TimelinePost {
  id?: unknown;
  text?: unknown;
  created_at?: unknown;
  entities?: { urls?: UrlEntity[] | null };
}

interface TimelineAnswer {
  data?: TimelinePost[];
  meta?: { next_token?: string; result_count?: number };
}

export async function findXPost(
  api: XApiConfig,
  account: AccountSession,
  lost: LostAttempt,
  signal: AbortSignal,
): Promise<PublishedPost | null> {
  const sent = comparable(fitX(lost.text));
  const token = String(account.credentials.access_token ?? "");
  const user = encodeURIComponent(String(account.credentials.user_id ?? ""));
  // X takes start_time to the second; rounding down reads a little more, never less.
  const startTime = new Date(Math.floor(lost.since / 1000) * 1000).toISOString().replace(".000Z", "Z");
  return readBackSince<string>({
    network: "x",
    name: "X",
    text: sent,
    since: lost.since,
    maxPages: MAX_PAGES,
    async readPage(cursor) {
      const query = new URLSearchParams({
        max_results: String(PAGE_SIZE),
        start_time: startTime,
        exclude: "replies,retweets",
        "post.fields": "created_at,entities",
      });
      if (cursor !== null) query.set("pagination_token", cursor);
      const path = `/2/users/${user}/tweets?${query}`;
      const answer = (await xCall(api, token, "GET", path, null, signal, true).catch((error: unknown) => {
        throw refusedReadBack(READ_BACK, error);
      })) as TimelineAnswer | null;
      // An empty timeline says so (result_count 0); an answer without posts or count is X's errors.
      if (!Array.isArray(answer?.data) && answer?.meta?.result_count !== 0) throw cannotReadBack(READ_BACK);
      const posts = (answer?.data ?? []).flatMap((post) => listed(post, sent));
      return { posts, next: answer?.meta?.next_token ?? null };
    },
  });
}

/** A timeline post as read back: its text is `sent` when it shows what was sent, else none. */
function listed(post: TimelinePost, sent: string): ListedPost[] {
  if (typeof post.id !== "string") return [];
  const shows =
    typeof post.text === "string" && shownAs(sent, comparable(post.text), post.entities?.urls ?? []);
  return [
    {
      id: post.id,
      text: shows ? sent : null,
      at: typeof post.created_at === "string" ? Date.parse(post.created_at) : Number.NaN,
      permalink: xPermalink(post.id),
    },
  ];
}

/** Both sides as compared: NFC, without surrounding white space (X trims a post's text). */
const comparable = (text: string) => text.normalize("NFC").trim();
