import {
  type MediaFile,
  NetworkError,
  type PartInput,
  type PollInput,
  type PublishedPost,
  type PublishStep,
  type SentPart,
  THREAD_KEYS,
} from "@socialpub/core";
import { cannotReadBack, refusedReadBack } from "../common/read-back-refused.ts";
import type { ConnectField } from "../describe.ts";
import { X_API_URL } from "./adapter.ts";
import { type XApiConfig, xCall, xSaidBy } from "./api.ts";
import { X_SEGMENT_BYTES } from "./chunked-upload.ts";
import { comparable, type XPoster } from "./find-published.ts";
import { type XOAuth1Credentials, xOAuth1Signer } from "./oauth1.ts";
import { fitX, xPermalink } from "./post-text.ts";
import { publishXAs } from "./publish.ts";
import { shownAs, type UrlEntity } from "./shown-text.ts";

/*
 * Posting to X without the service (the GitHub Action's direct mode): the four OAuth 1.0a user-context
 * credentials of an app's own account sign every call (oauth1.ts), media uploads included, and the post
 * goes out as the adapter sends it (publish.ts): media with alt text, a poll, reply_settings, a thread of
 * replies and a first comment. X takes no key of ours, so a run that is run again cannot ask X whether
 * it posted: it reads the account's posts and replies made since `since` back first (findXDirect), and
 * sends only the parts not there, each after the one before.
 */

/** X's largest timeline page. */
const PAGE_SIZE = 100;
/** Five pages: as find-published.ts reads, over an hour of an account's busiest posting. */
const MAX_PAGES = 5;

const READ_BACK = {
  network: "x",
  name: "X",
  why: "the account's posts could not be read back to see what an earlier run posted",
} as const;

/** The four credentials as connect fields (api_key, …), for a form or an Action's inputs. */
export const X_OAUTH1_FIELDS: readonly ConnectField[] = [
  {
    name: "api_key",
    label: "API key",
    secret: true,
    required: true,
    help: "The app's API key (consumer key), on the app's \"Keys and tokens\" page of X's developer portal.",
  },
  { name: "api_key_secret", label: "API key secret", secret: true, required: true },
  {
    name: "access_token",
    label: "Access token",
    secret: true,
    required: true,
    help: "Generated on the same page for the account that posts, with read and write permission.",
  },
  { name: "access_token_secret", label: "Access token secret", secret: true, required: true },
];

export interface XDirectOptions {
  /** The API's address (default https://api.x.com). */
  apiUrl?: string;
  fetch?: typeof fetch;
  now?: () => number;
  signal?: AbortSignal;
  /** What one append of a chunked (video, GIF) upload sends at most (default 4 MiB). */
  segmentBytes?: number;
}

export interface XDirectPost {
  /** The first part's text, already fitted to X (a longer one is cut as X weighs text). */
  text: string;
  media?: readonly MediaFile[];
  /** The further parts, each posted as a reply to the one before. */
  thread?: readonly PartInput[];
  firstComment?: string | null;
  poll?: PollInput | null;
  replySettings?: "following" | "mentionedUsers" | "subscribers" | "verified";
  /**
   * Where to look for what an earlier run of the same announcement posted: the account's posts and
   * replies made since then (Unix ms; the release's time, say). Without it nothing is looked for.
   */
  since?: number;
}

/** What an announcement already has on X: the parts found in order (from the first), and its comment. */
export interface XFoundThread {
  parts: SentPart[];
  firstComment: SentPart | null;
}

export interface XDirectResult extends PublishedPost {
  /** Every part, the first included, as it stands on X. */
  parts: readonly { id: string; permalink: string }[];
  /** How many of the parts an earlier run had posted (found, not sent again). */
  found: number;
}

function setup(credentials: XOAuth1Credentials, options: XDirectOptions) {
  const api: XApiConfig = {
    apiUrl: (options.apiUrl ?? X_API_URL).replace(/\/+$/, ""),
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? Date.now,
  };
  return { api, signer: xOAuth1Signer(credentials), signal: options.signal ?? AbortSignal.timeout(120_000) };
}

/** The account the credentials post as (GET /2/users/me). */
async function whoPosts(
  api: XApiConfig,
  signer: XPoster["auth"],
  signal: AbortSignal,
): Promise<XPoster & { username: string }> {
  const me = (await xCall(api, signer, "GET", "/2/users/me", null, signal, true)) as {
    data?: { id?: unknown; username?: unknown };
  } | null;
  const { id, username } = me?.data ?? {};
  if (typeof id !== "string" || typeof username !== "string") {
    throw new NetworkError(
      "x",
      "refused",
      `X did not say which account the keys post as ${xSaidBy(me, 200)}.`,
    );
  }
  return { auth: signer, userId: id, username };
}

/**
 * Publishes `post` on X with the four OAuth 1.0a credentials. With `post.since`, what an earlier run
 * posted is looked for first and not sent again: the thread goes on from the first part not found.
 * Throws NetworkError (its kind says whether trying again may help); never a credential in a message.
 */
export async function publishXDirect(
  credentials: XOAuth1Credentials,
  post: XDirectPost,
  options: XDirectOptions = {},
): Promise<XDirectResult> {
  const { api, signer, signal } = setup(credentials, options);
  const poster = await whoPosts(api, signer, signal);
  const texts = [post.text, ...(post.thread ?? []).map((part) => part.text)];
  const found =
    post.since === undefined
      ? { parts: [], firstComment: null }
      : await findThread(api, poster, texts, post.firstComment ?? null, post.since, signal);
  const threaded = texts.length > 1 || Boolean(post.firstComment);
  const first = found.parts[0];
  if (!threaded && first) return { ...first, parts: [first], found: 1 };
  // What was found, as publishThread's own step says it: those parts and the comment are not sent again.
  const step: PublishStep = {
    ...(found.parts.length > 0 && { [THREAD_KEYS.sent]: JSON.stringify(found.parts) }),
    ...(found.firstComment && {
      [THREAD_KEYS.comment]: "published",
      [THREAD_KEYS.commentPermalink]: found.firstComment.permalink,
    }),
  };
  let saved: PublishStep | null = Object.keys(step).length > 0 ? step : null;
  const published = await publishXAs(api, { segmentBytes: options.segmentBytes ?? X_SEGMENT_BYTES }, poster, {
    postId: "x-direct",
    text: post.text,
    media: post.media ?? [],
    thread: post.thread ?? [],
    firstComment: post.firstComment ?? null,
    poll: post.poll ?? null,
    ...(post.replySettings && { options: { x: { reply_settings: post.replySettings } } }),
    key: "",
    signal,
    step: saved,
    saveStep: async (next) => {
      saved = next;
    },
  });
  return {
    ...published,
    parts: published.parts ?? [{ id: published.id, permalink: published.permalink }],
    found: found.parts.length,
  };
}

/**
 * What an announcement of `texts` (its parts, in order) already has on the account: the parts found from
 * the first on, each a post made since `since` showing its text, the later ones replies in the first's
 * conversation, each after the one before; and its first comment. Nothing found: no parts.
 */
export async function findXDirect(
  credentials: XOAuth1Credentials,
  look: { texts: readonly string[]; firstComment?: string | null; since: number },
  options: XDirectOptions = {},
): Promise<XFoundThread> {
  const { api, signer, signal } = setup(credentials, options);
  const poster = await whoPosts(api, signer, signal);
  return findThread(api, poster, look.texts, look.firstComment ?? null, look.since, signal);
}

interface TimelineEntry {
  id: string;
  text: string;
  conversation: string | null;
  urls: UrlEntity[];
}

async function findThread(
  api: XApiConfig,
  poster: XPoster,
  texts: readonly string[],
  firstComment: string | null,
  since: number,
  signal: AbortSignal,
): Promise<XFoundThread> {
  const none: XFoundThread = { parts: [], firstComment: null };
  if (texts.length === 0) return none;
  // Oldest first, so each part is looked for after the one before.
  const entries = (await readSince(api, poster, since, signal)).reverse();
  const shows = (entry: TimelineEntry, text: string) =>
    shownAs(comparable(fitX(text)), comparable(entry.text), entry.urls);
  const asSent = (entry: TimelineEntry): SentPart => ({ id: entry.id, permalink: xPermalink(entry.id) });
  // The newest first part: a post of its own (its conversation is itself) with the first text.
  const root = entries.findLast((e) => (e.conversation ?? e.id) === e.id && shows(e, texts[0]!));
  if (!root) return none;
  const parts = [asSent(root)];
  const conversation = entries.filter((e) => e.conversation === root.id && e.id !== root.id);
  let at = 0;
  for (const text of texts.slice(1)) {
    const next = conversation.findIndex((e, i) => i >= at && shows(e, text));
    if (next < 0) break;
    parts.push(asSent(conversation[next]!));
    at = next + 1;
  }
  const used = new Set(parts.map((p) => p.id));
  const comment =
    firstComment === null ? undefined : conversation.find((e) => !used.has(e.id) && shows(e, firstComment));
  return { parts, firstComment: comment ? asSent(comment) : null };
}

/** The account's posts and replies made since `since`, newest first; more than MAX_PAGES of them is refused. */
async function readSince(
  api: XApiConfig,
  poster: XPoster,
  since: number,
  signal: AbortSignal,
): Promise<TimelineEntry[]> {
  const startTime = new Date(Math.floor(since / 1000) * 1000).toISOString().replace(".000Z", "Z");
  const entries: TimelineEntry[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({
      max_results: String(PAGE_SIZE),
      start_time: startTime,
      exclude: "retweets",
      "post.fields": "created_at,entities,conversation_id",
    });
    if (cursor !== null) query.set("pagination_token", cursor);
    const path = `/2/users/${encodeURIComponent(poster.userId)}/tweets?${query}`;
    const answer = (await xCall(api, poster.auth, "GET", path, null, signal, true).catch((error: unknown) => {
      throw refusedReadBack(READ_BACK, error);
    })) as {
      data?: { id?: unknown; text?: unknown; conversation_id?: unknown; entities?: { urls?: UrlEntity[] } }[];
      meta?: { next_token?: string; result_count?: number };
    } | null;
    if (!Array.isArray(answer?.data) && answer?.meta?.result_count !== 0) throw cannotReadBack(READ_BACK);
    for (const post of answer?.data ?? []) {
      if (typeof post.id !== "string" || typeof post.text !== "string") continue;
      entries.push({
        id: post.id,
        text: post.text,
        conversation: typeof post.conversation_id === "string" ? post.conversation_id : null,
        urls: post.entities?.urls ?? [],
      });
    }
    cursor = answer?.meta?.next_token ?? null;
    if (cursor === null) return entries;
  }
  throw new NetworkError(
    "x",
    "refused",
    `X: outcome unknown: the account made more posts since ${new Date(since).toISOString()} than are looked through for what an earlier run posted; nothing was sent, so no part can appear twice.`,
  );
}
