import type { ApiKeyRecord, AuthorizedCall, Effects, UserRecord } from "@socialpub/core";
import {
  KEY_AND_USER_BY_HASH,
  KEY_COLUMNS,
  keyAndUserFromColumns,
  keyFromColumns,
  USER_COLUMNS,
  userFromColumns,
} from "../rows.ts";
import type { SqliteCore } from "./core.ts";
import type { KnownKey } from "./known-keys.ts";

export async function createUser(core: SqliteCore, user: UserRecord): Promise<void> {
  await core.write(() =>
    core.run(
      "INSERT INTO users (id, email, name, studio, plan, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      user.id,
      user.email,
      user.name,
      user.studio,
      user.plan,
      user.created_at,
    ),
  );
}

export async function getUser(core: SqliteCore, id: string): Promise<UserRecord | null> {
  const row = core.getArray(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, id);
  return row ? userFromColumns(row) : null;
}

export async function findUserByEmail(core: SqliteCore, email: string): Promise<UserRecord | null> {
  const row = core.getArray(`SELECT ${USER_COLUMNS} FROM users WHERE email = ?`, email);
  return row ? userFromColumns(row) : null;
}

export async function listUsers(core: SqliteCore): Promise<UserRecord[]> {
  return core
    .allArrays(`SELECT ${USER_COLUMNS} FROM users ORDER BY created_at, id`)
    .map((row) => userFromColumns(row));
}

export async function createKey(core: SqliteCore, key: ApiKeyRecord): Promise<void> {
  await core.write(() =>
    core.run(
      `INSERT INTO api_keys (id, user_id, hash, mode, hint, created_at, revoked_at, name, last_used_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      key.id,
      key.user_id,
      key.hash,
      key.mode,
      key.hint,
      key.created_at,
      key.revoked_at,
      key.name ?? null,
      key.last_used_at ?? null,
    ),
  );
}

export async function findKeyByHash(core: SqliteCore, hash: string): Promise<ApiKeyRecord | null> {
  const row = core.getArray(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = ?`, hash);
  return row ? keyFromColumns(row) : null;
}

export async function listKeys(core: SqliteCore, userId: string): Promise<ApiKeyRecord[]> {
  return core
    .allArrays(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE user_id = ? ORDER BY rowid`, userId)
    .map((row) => keyFromColumns(row));
}

export async function revokeKey(
  core: SqliteCore,
  id: string,
  at: number,
  effects?: Effects,
): Promise<boolean> {
  return core.write(() => {
    const revoked =
      core.run("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", at, id) > 0;
    if (revoked) core.writeEffects(effects);
    return revoked;
  });
}

export async function markKeyUsed(core: SqliteCore, id: string, at: number): Promise<void> {
  // A write like any other: the keys this process knows are read again, with the new time.
  await core.write(() =>
    core.run(
      "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
      at,
      id,
      at,
    ),
  );
}

export async function authorizeCall(
  core: SqliteCore,
  keyHash: string,
  month: string,
): Promise<AuthorizedCall | null> {
  return core.authorizedCalls.increment(keyHash, month);
}

export async function incrementApiCalls(core: SqliteCore, userId: string, month: string): Promise<number> {
  return (await core.usage.increment(userId, month))!.calls;
}

export function addCalls(core: SqliteCore, userId: string, month: string, calls: number): number {
  const row = core.getArray(
    `INSERT INTO api_usage (user_id, month, calls) VALUES (?, ?, ?)
     ON CONFLICT (user_id, month) DO UPDATE SET calls = calls + excluded.calls
     RETURNING calls`,
    userId,
    month,
    calls,
  );
  return row![0] as number;
}

/**
 * The key with this hash, its user and posts version, kept for the next calls; null when there is
 * none or it is revoked.
 */
export function readKnownKey(core: SqliteCore, keyHash: string): KnownKey | null {
  const row = core.getArray(KEY_AND_USER_BY_HASH, keyHash);
  if (!row) return null;
  const found = keyAndUserFromColumns(row);
  if (found.key.revoked_at !== null) return null;
  return core.knownKeys.remember(keyHash, found);
}

export async function getApiCalls(core: SqliteCore, userId: string, month: string): Promise<number> {
  const row = core.get("SELECT calls FROM api_usage WHERE user_id = ? AND month = ?", userId, month);
  return row ? (row.calls as number) : 0;
}
