import type { AccountSession, LostAttempt, PublishedPost } from "@socialpub/core";
import { type ListedPost, readBackSince } from "../common/read-back.ts";
import { cannotReadBack, refusedReadBack } from "../common/read-back-refused.ts";
import { type XApiConfig, type XAuth, xCall } from "./api.ts";
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
  conversation_id?: unknown;
  entities?: { urls?: UrlEntity[] | null };
}

/** Who posts on X: how calls are authorized, and the account's user id (whose timeline is read). */
export interface XPoster {
  auth: XAuth;
  userId: string;
}

export const posterOf = (account: AccountSession): XPoster => ({
  auth: String(account.credentials.access_token ?? ""),
  userId: String(account.credentials.user_id ?? ""),
});

/** What is looked for on the timeline: a text made since a time (and after a post), perhaps a reply. */
export interface XLookFor {
  text: string;
  /** The earliest the post can have been made (Unix ms); 0 when only `sinceId` bounds it. */
  since: number;
  /** A post it was made after (a reply is newer than what it replies to): X reads only newer ones. */
  sinceId?: string;
  /** The conversation (its first post's id) a reply must belong to; a post outside it is not it. */
  conversation?: string;
  /** Whether replies are read too (a thread's later parts, a first comment). */
  replies: boolean;
}

interface TimelineAnswer {
  data?: TimelinePost[];
  meta?: { next_token?: string; result_count?: number };
}

export function findXPost(
  api: XApiConfig,
  account: AccountSession,
  lost: LostAttempt,
  signal: AbortSignal,
): Promise<PublishedPost | null> {
  return findOnTimeline(
    api,
    posterOf(account),
    { text: lost.text, since: lost.since, replies: false },
    signal,
  );
}

/**
 * The post on `poster`'s timeline with `look.text` as sent, made since `look.since` (and after
 * `look.sinceId`, in `look.conversation`), or null when none of those made since shows it.
 */
export async function findOnTimeline(
  api: XApiConfig,
  poster: XPoster,
  look: XLookFor,
  signal: AbortSignal,
): Promise<PublishedPost | null> {
  const sent = comparable(fitX(look.text));
  const user = encodeURIComponent(poster.userId);
  // X takes start_time to the second; rounding down reads a little more, never less.
  const startTime = new Date(Math.floor(look.since / 1000) * 1000).toISOString().replace(".000Z", "Z");
  return readBackSince<string>({
    network: "x",
    name: "X",
    text: sent,
    since: look.since,
    maxPages: MAX_PAGES,
    async readPage(cursor) {
      const query = new URLSearchParams({
        max_results: String(PAGE_SIZE),
        ...(look.since > 0 && { start_time: startTime }),
        ...(look.sinceId !== undefined && { since_id: look.sinceId }),
        exclude: look.replies ? "retweets" : "replies,retweets",
        "post.fields":
          look.conversation === undefined ? "created_at,entities" : "created_at,entities,conversation_id",
      });
      if (cursor !== null) query.set("pagination_token", cursor);
      const path = `/2/users/${user}/tweets?${query}`;
      const answer = (await xCall(api, poster.auth, "GET", path, null, signal, true).catch(
        (error: unknown) => {
          throw refusedReadBack(READ_BACK, error);
        },
      )) as TimelineAnswer | null;
      // An empty timeline says so (result_count 0); an answer without posts or count is X's errors.
      if (!Array.isArray(answer?.data) && answer?.meta?.result_count !== 0) throw cannotReadBack(READ_BACK);
      const posts = (answer?.data ?? []).flatMap((post) => listed(post, sent, look.conversation));
      return { posts, next: answer?.meta?.next_token ?? null };
    },
  });
}

/**
 * A timeline post as read back: its text is `sent` when it shows what was sent (in `conversation`, when
 * one is named), else none.
 */
function listed(post: TimelinePost, sent: string, conversation?: string): ListedPost[] {
  if (typeof post.id !== "string") return [];
  const shows =
    typeof post.text === "string" &&
    (conversation === undefined || post.conversation_id === conversation) &&
    shownAs(sent, comparable(post.text), post.entities?.urls ?? []);
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
export const comparable = (text: string) => text.normalize("NFC").trim();
