import type { FakeAnswer } from "../../common/fake-server.ts";
import { invalid, NOT_FOUND } from "./problem.ts";

/*
 * A user's posts as X's timeline lists them (GET /2/users/{id}/tweets, getUsersPosts in
 * x-openapi.json): newest first, replies included unless `exclude` names them, max_results a page (5 to
 * 100, 10 by default), start_time inclusive and end_time exclusive, since_id and until_id, a pagination_token for the next page, and the fields
 * asked for in post.fields. The text reads as X shows it, not as it was sent: &, < and > escaped as
 * HTML, each link (and bare domain) wrapped as a t.co address (in entities.urls with the address it
 * stands for), and a post with media ending in a t.co link to its first media (an url entity with a
 * media_key).
 */

/** What the timeline needs of a post the fake holds. */
export interface TimelinePost {
  id: string;
  userId: string;
  text: string;
  mediaIds: string[];
  createdAt: number;
  replyTo?: string | null;
  conversationId?: string;
}

/** A link, and a bare domain X links too (with a few common endings: this is a fake's rule, not X's). */
const LINK = /(?<=^|\s)(?:https?:\/\/\S+|(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev)(?:\/\S*)?)/gi;

export function timeline(posts: readonly TimelinePost[], userId: string, query: URLSearchParams): FakeAnswer {
  const max = Number(query.get("max_results") ?? 10);
  if (!Number.isInteger(max) || max < 5 || max > 100) return invalid("max_results must be from 5 to 100.");
  const start = timeOf(query.get("start_time"), Number.NEGATIVE_INFINITY);
  const end = timeOf(query.get("end_time"), Number.POSITIVE_INFINITY);
  if (Number.isNaN(start) || Number.isNaN(end))
    return invalid("start_time and end_time must be RFC 3339 times.");
  const sinceId = idOf(query.get("since_id"), -1n);
  const untilId = idOf(query.get("until_id"), 2n ** 64n);
  // The token names the newest post of the page it stands for, in base32hex as X's are.
  const token = query.get("pagination_token");
  const before = token === null ? null : fromBase32(token);
  if (token !== null && before === null) return invalid("The pagination_token is not one X gave.");
  const fields = new Set((query.get("post.fields") ?? "").split(","));
  const exclude = new Set((query.get("exclude") ?? "").split(","));
  const mine = posts
    .filter((p) => p.userId === userId && p.createdAt >= start && p.createdAt < end)
    .filter((p) => !(exclude.has("replies") && p.replyTo))
    .filter((p) => BigInt(p.id) > sinceId && BigInt(p.id) < untilId)
    .filter((p) => before === null || BigInt(p.id) <= before)
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  const page = mine.slice(0, max);
  const rest = mine[max];
  if (page.length === 0) return { status: 200, json: { meta: { result_count: 0 } } };
  return {
    status: 200,
    json: {
      data: page.map((post) => shown(post, fields)),
      meta: {
        result_count: page.length,
        newest_id: page[0]!.id,
        oldest_id: page.at(-1)!.id,
        ...(rest && { next_token: BigInt(rest.id).toString(32) }),
      },
    },
  };
}

/** An unknown user, as X answers it: 200 with the problem in `errors`. */
export function unknownUser(id: string): FakeAnswer {
  return {
    status: 200,
    json: {
      errors: [
        {
          type: NOT_FOUND,
          title: "Not Found Error",
          detail: `Could not find user with id: [${id}].`,
          resource_type: "user",
          resource_id: id,
          parameter: "id",
          value: id,
        },
      ],
    },
  };
}

function shown(post: TimelinePost, fields: Set<string>) {
  const urls: Record<string, unknown>[] = [];
  let text = "";
  let length = 0;
  const add = (part: string) => {
    text += part;
    length += [...part].length;
  };
  let at = 0;
  for (const link of post.text.matchAll(LINK)) {
    add(escapeHtml(post.text.slice(at, link.index)));
    const wrapped = `https://t.co/${short(`${post.id}:${link.index}`)}`;
    urls.push({
      start: length,
      end: length + wrapped.length,
      url: wrapped,
      // X gives a bare domain the scheme it lacks.
      expanded_url: /^https?:\/\//i.test(link[0]) ? link[0] : `http://${link[0]}`,
      display_url: link[0].replace(/^https?:\/\//, ""),
    });
    add(wrapped);
    at = link.index + link[0].length;
  }
  add(escapeHtml(post.text.slice(at)));
  const mediaKey = post.mediaIds[0] === undefined ? null : `3_${post.mediaIds[0]}`;
  if (mediaKey) {
    add(" ");
    const wrapped = `https://t.co/${short(post.id)}`;
    urls.push({
      start: length,
      end: length + wrapped.length,
      url: wrapped,
      expanded_url: `https://x.com/fake/status/${post.id}/photo/1`,
      display_url: "pic.x.com/fake",
      media_key: mediaKey,
    });
    add(wrapped);
  }
  return {
    id: post.id,
    text,
    edit_history_post_ids: [post.id],
    ...(fields.has("created_at") && { created_at: new Date(post.createdAt).toISOString() }),
    ...(fields.has("author_id") && { author_id: post.userId }),
    ...(fields.has("conversation_id") && { conversation_id: post.conversationId ?? post.id }),
    ...(fields.has("entities") && urls.length > 0 && { entities: { urls } }),
    ...(fields.has("attachments") &&
      post.mediaIds.length > 0 && { attachments: { media_keys: post.mediaIds.map((id) => `3_${id}`) } }),
  };
}

const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** Ten characters standing for `seed`, as t.co's are. */
function short(seed: string): string {
  let hash = 0;
  for (const c of seed) hash = (hash * 31 + c.codePointAt(0)!) >>> 0;
  return hash.toString(36).padStart(10, "0").slice(-10);
}

function timeOf(value: string | null, otherwise: number): number {
  return value === null ? otherwise : Date.parse(value);
}

function fromBase32(token: string): bigint | null {
  if (!/^[0-9a-v]{1,14}$/.test(token)) return null;
  let n = 0n;
  for (const c of token) n = n * 32n + BigInt(Number.parseInt(c, 32));
  return n;
}

function idOf(value: string | null, otherwise: bigint): bigint {
  return value === null || !/^\d{1,20}$/.test(value) ? otherwise : BigInt(value);
}
