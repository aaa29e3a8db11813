import { CONTRACT_MESSAGES } from "../contract/errors.ts";
import { hashApiKey, isWellFormedKey } from "../keys.ts";
import type { ApiKeyRecord, Store } from "../store/types.ts";
import { monthKey } from "../time/month.ts";
import type { Caller } from "./context.ts";
import { HttpError } from "./http-error.ts";

/**
 * How often a key's last use is written: at most once a minute per key, so a busy key adds one write a
 * minute rather than one per call (GET /keys shows `last_used_at` to the minute).
 */
export const KEY_USE_GRANULARITY_MS = 60_000;

const unauthorized = () => new HttpError(401, CONTRACT_MESSAGES.invalidKey, { "www-authenticate": "Bearer" });

/**
 * The caller behind `Authorization: Bearer <key>`, with the call counted against the month's allowance
 * (every authenticated request counts, decisions.md). Missing, malformed, unknown and revoked keys all
 * answer the same 401 and count nothing, so a response never tells which keys exist. Keys are found by
 * their SHA-256 hash: the comparison happens on digests in the store's index, never on the secret.
 * The store finds the key and counts the call in one step, so a revoked key is refused at once.
 * A key last marked used a minute ago or more is marked again before the call goes on.
 */
export async function authenticate(request: Request, store: Store, now: number): Promise<Caller> {
  const header = request.headers.get("authorization");
  const match = header ? /^Bearer +(\S+) *$/i.exec(header) : null;
  const token = match?.[1];
  if (!token || !isWellFormedKey(token)) throw unauthorized();
  const call = await store.authorizeCall(await hashApiKey(token), monthKey(now));
  if (!call) throw unauthorized();
  if (dueForMark(store, call.key, now)) await store.markKeyUsed(call.key.id, now);
  return { user: call.user, key: call.key, callsThisMonth: call.calls, postsVersion: call.postsVersion };
}

/** When this process last marked each key used, per store: concurrent calls of a key mark it once. */
const markedAt = new WeakMap<Store, Map<string, number>>();

function dueForMark(store: Store, key: ApiKeyRecord, now: number): boolean {
  const stored = key.last_used_at;
  if (stored !== undefined && now - stored < KEY_USE_GRANULARITY_MS) return false;
  let marks = markedAt.get(store);
  if (!marks) {
    marks = new Map();
    markedAt.set(store, marks);
  }
  const mine = marks.get(key.id);
  if (mine !== undefined && now - mine < KEY_USE_GRANULARITY_MS && now >= mine) return false;
  // Bounded: past it the marks start over, costing at most one more write per key.
  if (marks.size >= 10_000) marks.clear();
  marks.set(key.id, now);
  return true;
}
