import type { AccountSession, LostAttempt, PublishedPost } from "@socialpub/core";
import { type MetaGraphConfig, metaCall } from "./meta-graph.ts";
import { asStored, type ListedPost, readBackSince } from "./read-back.ts";
import { cannotReadBack, refusedReadBack } from "./read-back-refused.ts";

/*
 * An account's recent posts on Threads (GET /{threads-user-id}/threads) or Instagram
 * (GET /{ig-user-id}/media), read back for a post an attempt may have made without our knowing: both
 * list the account's posts newest first with the fields asked for (the text, `timestamp`, `permalink`)
 * and page with cursors (`paging.cursors.after`, and `paging.next` while there is a next page).
 * The cursor is sent rather than `paging.next` itself, because Meta writes the access token into that
 * address and the token goes nowhere but the Authorization header.
 */

/** Where an account's posts are listed, and the field that holds their text. */
export interface MetaListing {
  /** /{user-id}/threads, /{ig-user-id}/media. */
  listPath: string;
  /** Threads `text`, Instagram `caption`. */
  textField: string;
}

/** Posts a page: half of the largest page Meta gives, so a page stays small. */
const PAGE_SIZE = 50;
/**
 * Five pages are 250 posts: Threads' whole daily publishing limit (Instagram's is 50), read back over
 * the hour or so a post's retries take; an account that made more since fails as outcome unknown.
 */
const MAX_PAGES = 5;

interface MetaPage {
  data?: Record<string, unknown>[];
  paging?: { cursors?: { after?: unknown }; next?: unknown };
}

/** The post with exactly `text` made since `since` among the account's posts; null when none is. */
export function findMetaPost(
  graph: MetaGraphConfig,
  listing: MetaListing,
  token: string,
  find: { text: string; since: number },
  signal: AbortSignal,
): Promise<PublishedPost | null> {
  const readBack = {
    network: graph.network,
    name: graph.name,
    why: "the server could not read the account's recent posts back to see whether the post was made",
  };
  return readBackSince<string>({
    network: graph.network,
    name: graph.name,
    text: asStored(find.text),
    since: find.since,
    maxPages: MAX_PAGES,
    async readPage(cursor) {
      const params: Record<string, string> = {
        fields: `id,${listing.textField},permalink,timestamp`,
        limit: String(PAGE_SIZE),
      };
      if (cursor !== null) params.after = cursor;
      const answer = (await metaCall(graph, token, "GET", listing.listPath, params, signal).catch(
        (error: unknown) => {
          throw refusedReadBack(readBack, error);
        },
      )) as MetaPage;
      if (!Array.isArray(answer.data)) throw cannotReadBack(readBack);
      const posts = answer.data.flatMap((m) => listed(m, listing));
      const after = answer.paging?.cursors?.after;
      const more = typeof answer.paging?.next === "string" && typeof after === "string" && after !== "";
      return { posts, next: more ? (after as string) : null };
    },
  });
}

/** `findPublished` for a Meta network: the lost attempt's text among the account's posts since it. */
export function findLostMetaPost(
  graph: MetaGraphConfig,
  listing: (userId: string) => MetaListing,
  account: AccountSession,
  lost: LostAttempt,
  signal: AbortSignal,
): Promise<PublishedPost | null> {
  const userId = String(account.credentials.user_id ?? "me");
  const token = String(account.credentials.access_token ?? "");
  return findMetaPost(graph, listing(userId), token, lost, signal);
}

function listed(media: Record<string, unknown>, listing: MetaListing): ListedPost[] {
  if (typeof media.id !== "string") return [];
  const text = media[listing.textField];
  return [
    {
      id: media.id,
      // A post made without text has none in the answer: it is the empty text.
      text: typeof text === "string" ? asStored(text) : text === undefined ? "" : null,
      at: metaTime(media.timestamp),
      permalink: typeof media.permalink === "string" ? media.permalink : "",
    },
  ];
}

/** Meta writes times as 2026-11-24T07:00:00+0000; NaN when it wrote none. */
function metaTime(value: unknown): number {
  if (typeof value !== "string") return Number.NaN;
  return Date.parse(value.replace(/([+-]\d\d)(\d\d)$/, "$1:$2"));
}
