import type { z } from "zod";
import type { CreateKeyBody } from "../../contract/requests.ts";
import type { ApiKey, CreatedApiKey } from "../../contract/resources.ts";
import { newApiKey } from "../../keys.ts";
import type { ApiKeyRecord } from "../../store/types.ts";
import type { Caller, RequestContext } from "../context.ts";
import { badRequest, HttpError } from "../http-error.ts";
import { json } from "../responses.ts";

/** Active keys a user may hold; more is almost always a leak in the caller's automation. */
export const MAX_KEYS_PER_USER = 50;

const notFound = () => new HttpError(404, "API key not found.");

function toApiKey(k: ApiKeyRecord): ApiKey {
  return {
    id: k.id,
    mode: k.mode,
    name: k.name ?? null,
    hint: k.hint,
    created_at: k.created_at,
    last_used_at: k.last_used_at ?? null,
  };
}

/** A test key manages test keys only; a live key manages both (decisions.md, "Keys and accounts"). */
const manages = (caller: Caller, key: Pick<ApiKeyRecord, "mode">) =>
  caller.key.mode === "live" || key.mode === "test";

/** The caller's user's keys that are not revoked and that the calling key manages, oldest first. */
async function managedKeys({ deps, caller }: RequestContext): Promise<ApiKeyRecord[]> {
  const keys = await deps.store.listKeys(caller.user.id);
  return keys.filter((k) => k.revoked_at === null && manages(caller, k));
}

/** GET /keys: the keys the calling key manages, each with its hint, never the key itself. */
export async function listKeys(ctx: RequestContext): Promise<Response> {
  return json(200, { data: (await managedKeys(ctx)).map(toApiKey) });
}

/**
 * POST /keys: a new key for the caller's user, answered once. The store keeps its hash only, so the
 * answer is not kept for an Idempotency-Key either (it would hold the key): the route takes none.
 */
export async function createKey(ctx: RequestContext<z.output<typeof CreateKeyBody>>): Promise<Response> {
  const { deps, caller, body } = ctx;
  if (!manages(caller, body)) {
    throw new HttpError(
      403,
      "A test key can create test keys only: sign in with a live key (sp_live_…) to create a live key.",
    );
  }
  const active = (await deps.store.listKeys(caller.user.id)).filter((k) => k.revoked_at === null);
  if (active.length >= MAX_KEYS_PER_USER) {
    throw badRequest(`At most ${MAX_KEYS_PER_USER} active API keys per account; revoke one first.`);
  }
  const now = deps.clock.now();
  const { record, apiKey } = await newApiKey(caller.user.id, body.mode, now, body.name);
  await deps.store.createKey(record);
  const answer: CreatedApiKey = {
    id: record.id,
    key: apiKey,
    mode: record.mode,
    name: record.name ?? null,
    created_at: record.created_at,
  };
  return json(201, answer);
}

/**
 * DELETE /keys/{id}: revokes one of the user's keys, the calling key included. Every instance reads
 * the key on each call it authenticates (or forgets what it knew at this write), so the next call
 * with it, anywhere, is 401.
 */
export async function deleteKey({ deps, caller, params, keptAnswer }: RequestContext): Promise<Response> {
  const id = params.id!;
  const key = (await deps.store.listKeys(caller.user.id)).find((k) => k.id === id && k.revoked_at === null);
  if (!key) throw notFound();
  if (!manages(caller, key)) {
    throw new HttpError(
      403,
      "A test key can revoke test keys only: sign in with a live key (sp_live_…) to revoke a live key.",
    );
  }
  const answer = { deleted: true, id };
  // The answer kept for an Idempotency-Key is written with the revocation, as every keyed write's is.
  if (!(await deps.store.revokeKey(id, deps.clock.now(), { idempotency: keptAnswer(200, answer) }))) {
    throw notFound();
  }
  return json(200, answer);
}
