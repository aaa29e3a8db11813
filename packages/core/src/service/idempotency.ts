import { createHash } from "node:crypto";
import type { IdempotencyAnswer, Store } from "../store/types.ts";
import type { Caller, KeepAnswer } from "./context.ts";
import { HttpError } from "./http-error.ts";
import { bodyTextOf, textResponse } from "./responses.ts";
import type { AnyRoute } from "./route.ts";

/** How long a response is kept for replay (decisions: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a key stays claimed by a request that has not answered. A restart frees the keys of requests
 * it cut off at once (they changed nothing: a change is stored with its answer); this lease frees a
 * key whose request never answers while the process lives on.
 */
export const IN_FLIGHT_TTL_MS = 5 * 60 * 1000;

/** Every POST and DELETE with a key honours Idempotency-Key, and the PATCHes that say so (edits of posts). */
export function takesIdempotencyKey(route: AnyRoute): boolean {
  if (!route.auth) return false;
  return route.method === "POST" || route.method === "DELETE" || route.idempotencyKey === true;
}

/** 1–255 printable ASCII characters. */
const VALID_KEY = /^[\x20-\x7E]{1,255}$/;

/**
 * Only the answers of requests that made a change (2xx) are kept. An error answer leaves the key
 * unused, so a client that fixes the cause (connects the network, adds the media) and retries with the
 * same key gets the change rather than the old error.
 */
export const isKept = (status: number) => status >= 200 && status < 300;

/** The request's Idempotency-Key, or null without one; 400 when it is not a valid key. */
export function idempotencyKeyOf(request: Request): string | null {
  const key = request.headers.get("idempotency-key");
  if (key === null) return null;
  if (!VALID_KEY.test(key)) {
    throw new HttpError(400, "Idempotency-Key must be 1 to 255 printable ASCII characters.");
  }
  return key;
}

/** Method, path with query, and a SHA-256 of the raw body: two requests alike in these are the same. */
export async function requestFingerprint(request: Request, body: Uint8Array<ArrayBuffer>): Promise<string> {
  const url = new URL(request.url);
  const hash = createHash("sha256").update(body).digest("hex");
  return `${request.method} ${url.pathname}${url.search} ${hash}`;
}

/**
 * Runs `handle` at most once per (user, key) to a change: a retry of a request that made its change gets
 * the stored status and body with `Idempotent-Replayed: true`. While the first request with the key is
 * still running, the key answers 409; once it has made its change, the same key on a different request
 * answers 422. An error answer frees the key: the retry runs again.
 *
 * `handle` gets `keep`, with which each write stores the answer in the same transaction as its change:
 * should the process die after the change and before the answer below is stored, the retry still
 * replays instead of making the change again. A 2xx answer that differs from the one kept is stored
 * once the handler has answered. An error answer whose change was written with it stays kept (a 5xx
 * after the change): the store keeps a record that holds an answer, so the retry replays the change.
 */
export async function withIdempotency(
  store: Store,
  caller: Caller,
  key: string,
  fingerprint: string,
  now: number,
  handle: (keep: KeepAnswer) => Promise<Response>,
): Promise<Response> {
  const userId = caller.user.id;
  let kept: IdempotencyAnswer | undefined;
  const keep: KeepAnswer = (status, body) => {
    kept = {
      user_id: userId,
      key,
      fingerprint,
      created_at: now,
      status,
      body: JSON.stringify(body),
      expires_at: now + IDEMPOTENCY_TTL_MS,
    };
    return kept;
  };
  const existing = await store.beginIdempotentRequest({
    user_id: userId,
    key,
    fingerprint,
    status: null,
    body: null,
    created_at: now,
    expires_at: now + IN_FLIGHT_TTL_MS,
  });
  if (existing) {
    if (existing.status === null || existing.body === null) {
      throw new HttpError(409, "A request with this Idempotency-Key is still in progress; retry it shortly.");
    }
    if (existing.fingerprint !== fingerprint) {
      throw new HttpError(
        422,
        "This Idempotency-Key was used for a different request; send a new key with a new request.",
      );
    }
    return textResponse(existing.status, existing.body, {
      "content-type": "application/json; charset=utf-8",
      "idempotent-replayed": "true",
    });
  }

  let response: Response;
  try {
    response = await handle(keep);
  } catch (err) {
    // Frees the key unless the change was written (with its answer) before the failure.
    await store.releaseIdempotentRequest(userId, key);
    throw err;
  }
  if (!isKept(response.status)) {
    await store.releaseIdempotentRequest(userId, key);
    return response;
  }
  // Answers made by json() carry their text: their stream need not be read (and can still be sent).
  const text = bodyTextOf(response);
  const body = text ?? (await response.text());
  // The usual case: the answer sent is the one the change stored with it, so there is nothing to add.
  if (kept?.status !== response.status || kept.body !== body) {
    await store.completeIdempotentRequest(userId, key, {
      status: response.status,
      body,
      expires_at: now + IDEMPOTENCY_TTL_MS,
    });
  }
  return text !== undefined ? response : textResponse(response.status, body, response.headers);
}
