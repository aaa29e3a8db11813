import type { FakeAnswer } from "./fake-server.ts";

/*
 * The Meta fake's listing of an account's posts (Threads' GET /{threads-user-id}/threads, Instagram's
 * GET /{ig-user-id}/media), as Meta documents it: newest first; only the fields asked for in `fields`
 * (`id` when none are), a field the node does not have refused with error 100; `limit` posts a page
 * (25 unless asked, 100 at most); cursor paging with `after` and `before`, answered in
 * `paging.cursors`, with `paging.next` only while older posts remain; and `since` / `until` (a Unix
 * timestamp or a date) bounding when the posts were made.
 */

/** A post as the listing shows it. */
export interface ListablePost {
  id: string;
  text: string;
  mediaType: string;
  mediaUrl: string | null;
  permalink: string;
  username: string;
  /** When it was published (Unix ms). */
  at: number;
}

export interface ListingRequest {
  /** The account's posts, newest first. */
  posts: readonly ListablePost[];
  query: URLSearchParams;
  /** Threads `text`, Instagram `caption`. */
  textField: string;
  /** Graph's name of the node type, for its errors (ThreadsMedia, IGMedia). */
  nodeType: string;
  /** The address of this listing, without its query, for `paging.next`. */
  address: string;
}

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

/** Meta writes times as 2026-11-24T07:00:00+0000. */
export function metaFakeTime(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, "+0000");
}

const cursorOf = (id: string) => Buffer.from(id).toString("base64url");
const idOf = (cursor: string) => Buffer.from(cursor, "base64url").toString();

/** A Unix timestamp in seconds, or a date Meta's strtotime would read; NaN when neither. */
function timeParam(value: string | null): number {
  if (value === null || value === "") return Number.NaN;
  return /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value);
}

export function listMetaPosts(request: ListingRequest): FakeAnswer {
  const { query, textField } = request;
  const fields = (query.get("fields") ?? "id").split(",").filter(Boolean);
  const values = (p: ListablePost): Record<string, string | undefined> => ({
    id: p.id,
    [textField]: p.text === "" ? undefined : p.text,
    media_type: p.mediaType,
    media_url: p.mediaUrl ?? undefined,
    permalink: p.permalink,
    username: p.username,
    timestamp: metaFakeTime(p.at),
  });
  const known = new Set(["id", textField, "media_type", "media_url", "permalink", "username", "timestamp"]);
  const unknown = fields.find((f) => !known.has(f));
  if (unknown !== undefined) {
    return metaListingError(
      `(#100) Tried accessing nonexisting field (${unknown}) on node type (${request.nodeType})`,
    );
  }
  const limit = Math.min(
    MAX_LIMIT,
    Math.max(1, Number(query.get("limit") ?? DEFAULT_LIMIT) || DEFAULT_LIMIT),
  );
  const since = timeParam(query.get("since"));
  const until = timeParam(query.get("until"));
  const inTime = request.posts.filter((p) => !(p.at < since) && !(p.at > until));
  const at = (cursor: string) => inTime.findIndex((p) => p.id === idOf(cursor));
  const after = query.get("after");
  const before = query.get("before");
  let page: readonly ListablePost[];
  if (after !== null) {
    const i = at(after);
    if (i < 0) return metaListingError("(#100) The after cursor is not valid for this listing");
    page = inTime.slice(i + 1, i + 1 + limit);
  } else if (before !== null) {
    const i = at(before);
    if (i < 0) return metaListingError("(#100) The before cursor is not valid for this listing");
    page = inTime.slice(Math.max(0, i - limit), i);
  } else {
    page = inTime.slice(0, limit);
  }
  const data = page.map((p) => {
    const all = values(p);
    const shown: Record<string, string> = {};
    for (const f of fields) {
      const value = all[f];
      if (value !== undefined) shown[f] = value;
    }
    return shown;
  });
  if (page.length === 0) return { status: 200, json: { data } };
  const last = page.at(-1)!;
  const olderRemain = inTime.indexOf(last) < inTime.length - 1;
  const next = new URL(request.address);
  for (const [k, v] of query) if (k !== "before" && k !== "after") next.searchParams.set(k, v);
  next.searchParams.set("after", cursorOf(last.id));
  return {
    status: 200,
    json: {
      data,
      paging: {
        cursors: { before: cursorOf(page[0]!.id), after: cursorOf(last.id) },
        ...(olderRemain && { next: next.href }),
      },
    },
  };
}

function metaListingError(message: string): FakeAnswer {
  return {
    status: 400,
    json: { error: { message, type: "OAuthException", code: 100, fbtrace_id: "fake" } },
  };
}
