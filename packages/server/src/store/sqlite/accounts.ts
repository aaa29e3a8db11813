import type {
  AccountPatch,
  AccountRecord,
  Effects,
  KeyMode,
  NetworkId,
  OAuthStateRecord,
} from "@socialpub/core";
import { ACCOUNT_COLUMNS, accountFromColumns, definedFields, toOAuthState } from "../rows.ts";
import type { SqliteCore } from "./core.ts";

// Both read on every publish: as arrays, which node:sqlite builds faster than named properties.
export async function listAccounts(
  core: SqliteCore,
  userId: string,
  mode: KeyMode,
): Promise<AccountRecord[]> {
  return core
    .allArrays(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE user_id = ? AND mode = ? ORDER BY rowid`,
      userId,
      mode,
    )
    .map(accountFromColumns);
}

export async function getAccount(
  core: SqliteCore,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
): Promise<AccountRecord | null> {
  return readAccount(core, userId, mode, platform);
}

export function readAccount(
  core: SqliteCore,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
): AccountRecord | null {
  const row = core.getArray(
    `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE user_id = ? AND mode = ? AND platform = ?`,
    userId,
    mode,
    platform,
  );
  return row ? accountFromColumns(row) : null;
}

export async function putAccount(core: SqliteCore, account: AccountRecord, effects?: Effects): Promise<void> {
  await core.write(() => {
    core.run(
      `INSERT INTO accounts (user_id, mode, platform, handle, followers, health, connected_at, credentials,
                             grant_ends_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, mode, platform) DO UPDATE SET
         handle = excluded.handle, followers = excluded.followers, health = excluded.health,
         connected_at = excluded.connected_at, credentials = excluded.credentials,
         grant_ends_at = excluded.grant_ends_at`,
      account.user_id,
      account.mode,
      account.platform,
      account.handle,
      account.followers,
      account.health,
      account.connected_at,
      account.credentials,
      account.grant_ends_at ?? null,
    );
    core.writeEffects(effects);
  });
}

export async function updateAccount(
  core: SqliteCore,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  patch: AccountPatch,
  effectsFor?: (before: AccountRecord, after: AccountRecord) => Effects,
): Promise<AccountRecord | null> {
  return core.write(() => {
    const before = readAccount(core, userId, mode, platform);
    if (!before) return null;
    const after: AccountRecord = { ...before, ...definedFields(patch) };
    core.run(
      "UPDATE accounts SET handle = ?, followers = ?, health = ? WHERE user_id = ? AND mode = ? AND platform = ?",
      after.handle,
      after.followers,
      after.health,
      userId,
      mode,
      platform,
    );
    core.writeEffects(effectsFor?.(before, after));
    return after;
  });
}

export async function setAccountCredentials(
  core: SqliteCore,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  credentials: string,
  expected?: string,
): Promise<boolean> {
  return core.write(
    () =>
      (expected === undefined
        ? core.run(
            "UPDATE accounts SET credentials = ? WHERE user_id = ? AND mode = ? AND platform = ?",
            credentials,
            userId,
            mode,
            platform,
          )
        : core.run(
            "UPDATE accounts SET credentials = ? WHERE user_id = ? AND mode = ? AND platform = ? AND credentials = ?",
            credentials,
            userId,
            mode,
            platform,
            expected,
          )) > 0,
  );
}

export async function deleteAccount(
  core: SqliteCore,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  effects?: Effects,
): Promise<boolean> {
  return core.write(() => {
    const removed =
      core.run(
        "DELETE FROM accounts WHERE user_id = ? AND mode = ? AND platform = ?",
        userId,
        mode,
        platform,
      ) > 0;
    if (removed) core.writeEffects(effects);
    return removed;
  });
}

export async function countAccountsWithCredentials(core: SqliteCore): Promise<number> {
  return core.get("SELECT count(*) AS n FROM accounts WHERE credentials IS NOT NULL")!.n as number;
}

export async function settleEndingGrants(
  core: SqliteCore,
  now: number,
  aheadMs: number,
  limit: number,
  effectsFor?: (account: AccountRecord) => Effects,
): Promise<AccountRecord[]> {
  return core.write(() => {
    // The health to replace is in the WHERE clause, so the change is made once however often it runs.
    const changed = core
      .allArrays(
        `UPDATE accounts SET health = CASE WHEN grant_ends_at <= ? THEN 'reauth_required' ELSE 'expiring' END
       WHERE rowid IN (
         SELECT rowid FROM accounts
         WHERE mode = 'live' AND grant_ends_at IS NOT NULL
           AND ((health <> 'reauth_required' AND grant_ends_at <= ?)
             OR (health = 'healthy' AND grant_ends_at <= ?))
         ORDER BY grant_ends_at LIMIT ?)
       RETURNING ${ACCOUNT_COLUMNS}`,
        now,
        now,
        now + aheadMs,
        limit,
      )
      .map(accountFromColumns)
      .sort((a, b) => a.grant_ends_at! - b.grant_ends_at!);
    for (const account of changed) core.writeEffects(effectsFor?.(account));
    return changed;
  });
}

export async function nextGrantChangeAt(core: SqliteCore, aheadMs: number): Promise<number | null> {
  const row = core.get(
    `SELECT min(CASE WHEN health = 'healthy' THEN grant_ends_at - ? ELSE grant_ends_at END) AS at
     FROM accounts
     WHERE mode = 'live' AND grant_ends_at IS NOT NULL AND health <> 'reauth_required'`,
    aheadMs,
  );
  return (row?.at as number | null) ?? null;
}

export async function listAccountsWithoutGrantEnd(
  core: SqliteCore,
  platforms: readonly NetworkId[],
  after: { user_id: string; platform: NetworkId } | null,
  limit: number,
): Promise<AccountRecord[]> {
  if (platforms.length === 0) return [];
  return core
    .allArrays(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts
     WHERE mode = 'live' AND credentials IS NOT NULL AND grant_ends_at IS NULL
       AND platform IN (${platforms.map(() => "?").join(", ")})
       AND (user_id > ? OR (user_id = ? AND platform > ?))
     ORDER BY user_id, platform LIMIT ?`,
      ...platforms,
      after?.user_id ?? "",
      after?.user_id ?? "",
      after?.platform ?? "",
      limit,
    )
    .map(accountFromColumns);
}

export async function fillGrantEnd(
  core: SqliteCore,
  userId: string,
  platform: NetworkId,
  grantEndsAt: number,
  expected: string,
): Promise<boolean> {
  return core.write(
    () =>
      core.run(
        `UPDATE accounts SET grant_ends_at = ?
         WHERE user_id = ? AND mode = 'live' AND platform = ? AND grant_ends_at IS NULL AND credentials = ?`,
        grantEndsAt,
        userId,
        platform,
        expected,
      ) > 0,
  );
}

export async function putOAuthState(core: SqliteCore, record: OAuthStateRecord): Promise<void> {
  await core.write(() => {
    core.run("DELETE FROM oauth_states WHERE expires_at <= ?", record.created_at);
    core.run(
      `INSERT INTO oauth_states (state_hash, user_id, platform, secret, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      record.state_hash,
      record.user_id,
      record.platform,
      record.secret,
      record.created_at,
      record.expires_at,
    );
  });
}

export async function takeOAuthState(
  core: SqliteCore,
  stateHash: string,
  now: number,
): Promise<OAuthStateRecord | null> {
  // DELETE … RETURNING takes the row in one statement: of two callbacks with one state, one gets it.
  const row = core.get("DELETE FROM oauth_states WHERE state_hash = ? RETURNING *", stateHash);
  if (!row || (row.expires_at as number) <= now) return null;
  return toOAuthState(row);
}
