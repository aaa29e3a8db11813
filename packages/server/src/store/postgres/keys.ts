import type { ApiKeyRecord, AuthorizedCall, Effects, UserRecord } from "@socialpub/core";
import { toKey, toUser } from "../rows.ts";
import type { PostgresCore } from "./core.ts";

/** How long a window's count is kept after the window ends (they are removed in passing). */
const RATE_WINDOW_KEEP_MS = 10 * 60_000;

export async function createUser(core: PostgresCore, user: UserRecord): Promise<void> {
  await core.rows(
    () => core.sql`INSERT INTO users (id, email, name, studio, plan, created_at)
      VALUES (${user.id}, ${user.email}, ${user.name}, ${user.studio}, ${user.plan}, ${user.created_at})`,
  );
}

export async function getUser(core: PostgresCore, id: string): Promise<UserRecord | null> {
  const row = await core.one(() => core.sql`SELECT * FROM users WHERE id = ${id}`);
  return row ? toUser(row) : null;
}

export async function findUserByEmail(core: PostgresCore, email: string): Promise<UserRecord | null> {
  const row = await core.one(() => core.sql`SELECT * FROM users WHERE email = ${email}`);
  return row ? toUser(row) : null;
}

export async function listUsers(core: PostgresCore): Promise<UserRecord[]> {
  return (await core.rows(() => core.sql`SELECT * FROM users ORDER BY created_at, id`)).map(toUser);
}

export async function createKey(core: PostgresCore, key: ApiKeyRecord): Promise<void> {
  await core.rows(
    () => core.sql`INSERT INTO api_keys (id, user_id, hash, mode, hint, created_at, revoked_at, name,
                                       last_used_at)
      VALUES (${key.id}, ${key.user_id}, ${key.hash}, ${key.mode}, ${key.hint}, ${key.created_at},
              ${key.revoked_at}, ${key.name ?? null}, ${key.last_used_at ?? null})`,
  );
}

export async function findKeyByHash(core: PostgresCore, hash: string): Promise<ApiKeyRecord | null> {
  const row = await core.one(() => core.sql`SELECT * FROM api_keys WHERE hash = ${hash}`);
  return row ? toKey(row) : null;
}

export async function listKeys(core: PostgresCore, userId: string): Promise<ApiKeyRecord[]> {
  return (await core.rows(() => core.sql`SELECT * FROM api_keys WHERE user_id = ${userId} ORDER BY seq`)).map(
    toKey,
  );
}

export async function revokeKey(
  core: PostgresCore,
  id: string,
  at: number,
  effects?: Effects,
): Promise<boolean> {
  return core.tx(async (tx) => {
    const rows = await tx`UPDATE api_keys SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL
                          RETURNING id`;
    if (rows.length === 0) return false;
    await core.writeEffects(tx, effects);
    return true;
  });
}

export async function markKeyUsed(core: PostgresCore, id: string, at: number): Promise<void> {
  await core.rows(
    () => core.sql`UPDATE api_keys SET last_used_at = ${at}
                   WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${at})`,
  );
}

export async function authorizeCall(
  core: PostgresCore,
  keyHash: string,
  month: string,
): Promise<AuthorizedCall | null> {
  // One statement, one round trip: the key and its user are read by the statement that counts the
  // call, so a key revoked through any instance is refused at once, and a refused call counts nothing.
  const row = await core.one(
    () => core.sql`WITH found AS (
        SELECT k.id AS key_id, k.user_id, k.hash, k.mode, k.hint, k.created_at AS key_created_at,
               k.revoked_at, k.name AS key_name, k.last_used_at, u.email, u.name, u.studio, u.plan, u.created_at AS user_created_at,
               u.posts_version
        FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.hash = ${keyHash} AND k.revoked_at IS NULL
      ), counted AS (
        INSERT INTO api_usage (user_id, month, calls) SELECT user_id, ${month}, 1 FROM found
        ON CONFLICT (user_id, month) DO UPDATE SET calls = api_usage.calls + 1
        RETURNING calls
      )
      SELECT found.*, counted.calls FROM found, counted`,
  );
  if (!row) return null;
  return {
    key: toKey({ ...row, id: row.key_id, created_at: row.key_created_at, name: row.key_name }),
    user: toUser({ ...row, id: row.user_id, created_at: row.user_created_at }),
    calls: row.calls as number,
    postsVersion: Number(row.posts_version),
  };
}

export async function incrementApiCalls(core: PostgresCore, userId: string, month: string): Promise<number> {
  // One statement: the row lock orders concurrent increments, from any instance, so each call gets
  // its own count.
  const row = await core.one(
    () => core.sql`INSERT INTO api_usage (user_id, month, calls) VALUES (${userId}, ${month}, 1)
      ON CONFLICT (user_id, month) DO UPDATE SET calls = api_usage.calls + 1
      RETURNING calls`,
  );
  return row!.calls as number;
}

export async function countKeyRequest(
  core: PostgresCore,
  keyId: string,
  windowStart: number,
): Promise<number> {
  const row = await core.one(
    () => core.sql`INSERT INTO rate_windows (key_id, window_start, requests) VALUES (${keyId}, ${windowStart}, 1)
      ON CONFLICT (key_id, window_start) DO UPDATE SET requests = rate_windows.requests + 1
      RETURNING requests, xmax = 0 AS opened`,
  );
  // The first request of a window clears windows long ended, so the table stays as small as the
  // number of keys in use.
  if (row!.opened) {
    await core.rows(
      () => core.sql`DELETE FROM rate_windows WHERE window_start < ${windowStart - RATE_WINDOW_KEEP_MS}`,
    );
  }
  return row!.requests as number;
}

export async function getApiCalls(core: PostgresCore, userId: string, month: string): Promise<number> {
  const row = await core.one(
    () => core.sql`SELECT calls FROM api_usage WHERE user_id = ${userId} AND month = ${month}`,
  );
  return row ? (row.calls as number) : 0;
}
