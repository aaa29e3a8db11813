import { CONTRACT_MESSAGES } from "../contract/errors.ts";
import { hashApiKey, isWellFormedKey } from "../keys.ts";
import type { Store } from "../store/types.ts";
import type { Caller } from "./context.ts";
import { HttpError } from "./http-error.ts";

const unauthorized = () => new HttpError(401, CONTRACT_MESSAGES.invalidKey, { "www-authenticate": "Bearer" });

/**
 * The caller behind `Authorization: Bearer <key>`. Missing, malformed, unknown and revoked keys all
 * answer the same 401, so a response never tells which keys exist. Keys are found by their SHA-256
 * hash: the comparison happens on digests in the store's index, never on the secret.
 */
export async function authenticate(request: Request, store: Store): Promise<Caller> {
  const header = request.headers.get("authorization");
  const match = header ? /^Bearer +(\S+) *$/i.exec(header) : null;
  const token = match?.[1];
  if (!token || !isWellFormedKey(token)) throw unauthorized();
  const key = await store.findKeyByHash(await hashApiKey(token));
  if (!key || key.revoked_at !== null) throw unauthorized();
  const user = await store.getUser(key.user_id);
  if (!user) throw unauthorized();
  return { user, key };
}
