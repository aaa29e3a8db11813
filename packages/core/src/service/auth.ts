import { CONTRACT_MESSAGES } from "../contract/errors.ts";
import { hashApiKey, isWellFormedKey } from "../keys.ts";
import type { Store } from "../store/types.ts";
import { monthKey } from "../time/month.ts";
import type { Caller } from "./context.ts";
import { HttpError } from "./http-error.ts";

const unauthorized = () => new HttpError(401, CONTRACT_MESSAGES.invalidKey, { "www-authenticate": "Bearer" });

/**
 * The caller behind `Authorization: Bearer <key>`, with the call counted against the month's allowance
 * (every authenticated request counts, decisions.md). Missing, malformed, unknown and revoked keys all
 * answer the same 401 and count nothing, so a response never tells which keys exist. Keys are found by
 * their SHA-256 hash: the comparison happens on digests in the store's index, never on the secret.
 * The store finds the key and counts the call in one step, so a revoked key is refused at once.
 */
export async function authenticate(request: Request, store: Store, now: number): Promise<Caller> {
  const header = request.headers.get("authorization");
  const match = header ? /^Bearer +(\S+) *$/i.exec(header) : null;
  const token = match?.[1];
  if (!token || !isWellFormedKey(token)) throw unauthorized();
  const call = await store.authorizeCall(await hashApiKey(token), monthKey(now));
  if (!call) throw unauthorized();
  return { user: call.user, key: call.key, callsThisMonth: call.calls, postsVersion: call.postsVersion };
}
