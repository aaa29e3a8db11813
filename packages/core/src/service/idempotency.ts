import { hash as digestOf } from "node:crypto";
import { IdempotencyKeyTaken } from "../store/idempotency-key-taken.ts";
import type { IdempotencyAnswer, IdempotencyRecord, Store } from "../store/types.ts";
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

/**
 * Turns a kept answer's body into the one replayed: the same text, unless the route keeps a secret
 * of its answer sealed (Route.replayKept).
 */
export type ReplayKept = (kept: string) => string;

const asKept: ReplayKept = (kept) => kept;

/**
 * Every POST and DELETE with a key honours Idempotency-Key, and the PATCHes that say so (edits of
 * posts), except a POST whose answer the store must not keep (a new API key: only its hash is kept).
 */
export function takesIdempotencyKey(route: AnyRoute): boolean {
  if (!route.auth || route.idempotencyKey === false) return false;
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
  const hash = digestOf("sha256", body, "hex");
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
  claimWithChange = false,
  replay: ReplayKept = asKept,
): Promise<Response> {
  if (claimWithChange) return withClaimInChange(store, caller, key, fingerprint, now, handle, replay);
  const userId = caller.user.id;
  const existing = await store.beginIdempotentRequest({
    user_id: userId,
    key,
    fingerprint,
    status: null,
    body: null,
    created_at: now,
    expires_at: now + IN_FLIGHT_TTL_MS,
  });
  if (existing) return answerTakenKey(existing, fingerprint, replay);

  const keeper = answerKeeper(userId, key, fingerprint, now, false);
  let response: Response;
  try {
    response = await handle(keeper.keep);
  } catch (err) {
    // Frees the key unless the change was written (with its answer) before the failure.
    await store.releaseIdempotentRequest(userId, key);
    throw err;
  }
  if (!isKept(response.status)) {
    await store.releaseIdempotentRequest(userId, key);
    return response;
  }
  return keepFinalAnswer(store, userId, key, now, keeper.kept(), response, replay);
}

/**
 * The same guarantees as withIdempotency with one write transaction fewer, for a handler whose first
 * store write carries `keep`'s answer and which changes nothing outside the store before it: that write
 * is the claim (`IdempotencyAnswer.claim`), inserting the key's record in the change's own transaction
 * or failing it whole when another request holds the key. Two requests with one key in this process
 * are told apart before either runs (the second answers 409 at once); on several instances of one
 * database, the unique (user_id, key) decides, and the loser's change is rolled back and answered 409.
 * A retry of a finished request finds the answer with a read. A crash before the change leaves
 * nothing behind (the retry runs once); after it, the answer, as before.
 */
async function withClaimInChange(
  store: Store,
  caller: Caller,
  key: string,
  fingerprint: string,
  now: number,
  handle: (keep: KeepAnswer) => Promise<Response>,
  replay: ReplayKept,
): Promise<Response> {
  const userId = caller.user.id;
  const running = runningKeysOf(store);
  const id = `${userId}\n${key}`;
  if (running.has(id)) throw inProgress();
  running.add(id);
  try {
    const existing = await store.findIdempotentRequest(userId, key, now);
    if (existing) return answerTakenKey(existing, fingerprint, replay);
    const keeper = answerKeeper(userId, key, fingerprint, now, true);
    let response: Response;
    try {
      response = await handle(keeper.keep);
    } catch (err) {
      if (err instanceof IdempotencyKeyTaken) throw inProgress();
      throw err;
    }
    // Nothing was claimed unless the change was written, and then with its answer: nothing to free.
    if (!isKept(response.status)) return response;
    return await keepFinalAnswer(store, userId, key, now, keeper.kept(), response, replay);
  } finally {
    running.delete(id);
  }
}

/** The keys whose requests are running in this process, per store (one service may share it). */
const runningKeys = new WeakMap<Store, Set<string>>();

function runningKeysOf(store: Store): Set<string> {
  const known = runningKeys.get(store);
  if (known) return known;
  const keys = new Set<string>();
  runningKeys.set(store, keys);
  return keys;
}

const inProgress = () =>
  new HttpError(409, "A request with this Idempotency-Key is still in progress; retry it shortly.");

/** The answer to a request whose key another request holds: 409 in flight, 422 if different, or the replay. */
function answerTakenKey(existing: IdempotencyRecord, fingerprint: string, replay: ReplayKept): Response {
  if (existing.status === null || existing.body === null) throw inProgress();
  if (existing.fingerprint !== fingerprint) {
    throw new HttpError(
      422,
      "This Idempotency-Key was used for a different request; send a new key with a new request.",
    );
  }
  return textResponse(existing.status, replay(existing.body), {
    "content-type": "application/json; charset=utf-8",
    "idempotent-replayed": "true",
  });
}

/**
 * The `keep` a handler's writes call, and the last answer it made. With `claimFirst`, the first answer
 * made is the claim of the key (the handler's first write carries it); later ones replace it.
 */
function answerKeeper(userId: string, key: string, fingerprint: string, now: number, claimFirst: boolean) {
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
      ...(claimFirst && kept === undefined && { claim: true as const }),
    };
    return kept;
  };
  return { keep, kept: () => kept };
}

/** Stores a 2xx answer unless the change already stored this very answer with it. */
async function keepFinalAnswer(
  store: Store,
  userId: string,
  key: string,
  now: number,
  kept: IdempotencyAnswer | undefined,
  response: Response,
  replay: ReplayKept,
): Promise<Response> {
  // Answers made by json() carry their text: their stream need not be read (and can still be sent).
  const text = bodyTextOf(response);
  const body = text ?? (await response.text());
  // The usual case: the answer sent is the one the change stored with it, so there is nothing to add.
  if (kept?.status !== response.status || (kept.body !== body && replay(kept.body) !== body)) {
    await store.completeIdempotentRequest(userId, key, {
      status: response.status,
      body,
      expires_at: now + IDEMPOTENCY_TTL_MS,
    });
  }
  return text !== undefined ? response : textResponse(response.status, body, response.headers);
}
