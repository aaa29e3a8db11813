import type { AccountSession, LostAttempt, PublishedPost } from "@socialpub/core";
import { type ListedPost, readBackSince } from "../common/read-back.ts";
import { cannotReadBack, refusedReadBack } from "../common/read-back-refused.ts";
import { type XApiConfig, xCall } from "./api.ts";
import { fitX, xPermalink } from "./post-text.ts";

/*
 * The post a lost attempt may have made on X, read back from the account's own timeline
 * (GET /2/users/{id}/tweets, newest first) from `since` on: X filters by start_time itself, so every
 * page read is made since the attempt could publish. X hands a post's text back as it shows it, not as
 * it was sent: each link wrapped as a t.co address (its `entities.urls` give the address it stands
 * for), a post with media ending in a t.co link to the media (an url entity with a `media_key`), and
 * &, < and > escaped as HTML. That is undone before comparing. A post with media is matched by its
 * text alone: the timeline names media by keys the attempt never learned.
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

interface UrlEntity {
  start?: number;
  url?: string | null;
  expanded_url?: string | null;
  media_key?: string | null;
}

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
  const token = String(account.credentials.access_token ?? "");
  const user = encodeURIComponent(String(account.credentials.user_id ?? ""));
  // X takes start_time to the second; rounding down reads a little more, never less.
  const startTime = new Date(Math.floor(lost.since / 1000) * 1000).toISOString().replace(".000Z", "Z");
  return readBackSince<string>({
    network: "x",
    name: "X",
    text: comparable(fitX(lost.text)),
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
      const posts = (answer?.data ?? []).flatMap((post) => listed(post));
      return { posts, next: answer?.meta?.next_token ?? null };
    },
  });
}

function listed(post: TimelinePost): ListedPost[] {
  if (typeof post.id !== "string") return [];
  return [
    {
      id: post.id,
      text: typeof post.text === "string" ? comparable(asSent(post.text, post.entities?.urls ?? [])) : null,
      at: typeof post.created_at === "string" ? Date.parse(post.created_at) : Number.NaN,
      permalink: xPermalink(post.id),
    },
  ];
}

/** Both sides as compared: NFC, without surrounding white space (X trims a post's text). */
const comparable = (text: string) => text.normalize("NFC").trim();

const HTML_ESCAPES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">" };

/**
 * A timeline post's text as it was sent: &amp; &lt; &gt; unescaped, each t.co address given back as the
 * address it stands for, and the media link X appends taken off. One pass over the text and one over
 * its entities, each looked for after the one before.
 */
export function asSent(text: string, urls: readonly UrlEntity[]): string {
  const plain = text.replace(/&(?:amp|lt|gt);/g, (entity) => HTML_ESCAPES[entity]!);
  const ordered = urls
    .filter((u): u is UrlEntity & { url: string } => typeof u.url === "string" && u.url.length > 0)
    .sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
  let out = "";
  let at = 0;
  for (const entity of ordered) {
    const found = plain.indexOf(entity.url, at);
    if (found < 0) continue;
    out += plain.slice(at, found);
    if (entity.media_key) {
      // The media link is X's, after a space of its own.
      if (out.endsWith(" ")) out = out.slice(0, -1);
    } else {
      out += entity.expanded_url ?? entity.url;
    }
    at = found + entity.url.length;
  }
  return out + plain.slice(at);
}
