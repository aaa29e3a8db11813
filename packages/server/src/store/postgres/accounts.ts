import type {
  AccountPatch,
  AccountRecord,
  Effects,
  KeyMode,
  NetworkId,
  OAuthStateRecord,
} from "@socialpub/core";
import { toAccount, toOAuthState } from "../rows.ts";
import type { PostgresCore } from "./core.ts";

export async function listAccounts(
  core: PostgresCore,
  userId: string,
  mode: KeyMode,
): Promise<AccountRecord[]> {
  return (
    await core.rows(
      () => core.sql`SELECT * FROM accounts WHERE user_id = ${userId} AND mode = ${mode} ORDER BY seq`,
    )
  ).map(toAccount);
}

export async function putAccount(
  core: PostgresCore,
  account: AccountRecord,
  effects?: Effects,
): Promise<void> {
  await core.tx(async (tx) => {
    await tx`
      INSERT INTO accounts (user_id, mode, platform, handle, followers, health, connected_at, credentials,
                            grant_ends_at)
      VALUES (${account.user_id}, ${account.mode}, ${account.platform}, ${account.handle},
              ${account.followers}, ${account.health}, ${account.connected_at}, ${account.credentials},
              ${account.grant_ends_at ?? null})
      ON CONFLICT (user_id, mode, platform) DO UPDATE SET
        handle = excluded.handle, followers = excluded.followers, health = excluded.health,
        connected_at = excluded.connected_at, credentials = excluded.credentials,
        grant_ends_at = excluded.grant_ends_at`;
    await core.writeEffects(tx, effects);
    // Every instance's sweep of ending grants looks again at when it next has something to do.
    if (account.grant_ends_at != null) await core.wake(tx, "grants");
  });
}

export async function updateAccount(
  core: PostgresCore,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  patch: AccountPatch,
  effectsFor?: (before: AccountRecord, after: AccountRecord) => Effects,
): Promise<AccountRecord | null> {
  return core.tx(async (tx) => {
    const [row] = await tx`SELECT * FROM accounts
                           WHERE user_id = ${userId} AND mode = ${mode} AND platform = ${platform} FOR UPDATE`;
    if (!row) return null;
    const before = toAccount(row);
    const after: AccountRecord = {
      ...before,
      ...(patch.handle !== undefined && { handle: patch.handle }),
      ...(patch.followers !== undefined && { followers: patch.followers }),
      ...(patch.health !== undefined && { health: patch.health }),
    };
    await tx`UPDATE accounts SET handle = ${after.handle}, followers = ${after.followers}, health = ${after.health}
             WHERE user_id = ${userId} AND mode = ${mode} AND platform = ${platform}`;
    await core.writeEffects(tx, effectsFor?.(before, after));
    return after;
  });
}

export async function setAccountCredentials(
  core: PostgresCore,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  credentials: string,
  expected?: string,
): Promise<boolean> {
  const rows = await core.rows(() =>
    expected === undefined
      ? core.sql`UPDATE accounts SET credentials = ${credentials}
                   WHERE user_id = ${userId} AND mode = ${mode} AND platform = ${platform} RETURNING user_id`
      : core.sql`UPDATE accounts SET credentials = ${credentials}
                   WHERE user_id = ${userId} AND mode = ${mode} AND platform = ${platform}
                     AND credentials = ${expected} RETURNING user_id`,
  );
  return rows.length > 0;
}

export async function deleteAccount(
  core: PostgresCore,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  effects?: Effects,
): Promise<boolean> {
  return core.tx(async (tx) => {
    const removed = await tx`DELETE FROM accounts
                             WHERE user_id = ${userId} AND mode = ${mode} AND platform = ${platform}
                             RETURNING user_id`;
    if (removed.length === 0) return false;
    await core.writeEffects(tx, effects);
    return true;
  });
}

export async function countAccountsWithCredentials(core: PostgresCore): Promise<number> {
  const row = await core.one(
    () => core.sql`SELECT count(*) AS n FROM accounts WHERE credentials IS NOT NULL`,
  );
  return (row?.n as number) ?? 0;
}

export async function settleEndingGrants(
  core: PostgresCore,
  now: number,
  aheadMs: number,
  limit: number,
  effectsFor?: (account: AccountRecord) => Effects,
): Promise<AccountRecord[]> {
  return core.tx(async (tx) => {
    // Rows another instance is settling are skipped (it changes them); the health to replace is in
    // the WHERE clause and read again under the row lock, so each change is made, and sent, once.
    const changed = (
      await tx`UPDATE accounts a
               SET health = CASE WHEN a.grant_ends_at <= ${now} THEN 'reauth_required' ELSE 'expiring' END
               FROM (SELECT user_id, mode, platform FROM accounts
                     WHERE mode = 'live' AND grant_ends_at IS NOT NULL
                       AND ((health <> 'reauth_required' AND grant_ends_at <= ${now})
                         OR (health = 'healthy' AND grant_ends_at <= ${now + aheadMs}))
                     ORDER BY grant_ends_at LIMIT ${limit}
                     FOR UPDATE SKIP LOCKED) due
               WHERE a.user_id = due.user_id AND a.mode = due.mode AND a.platform = due.platform
               RETURNING a.*`
    )
      .map(toAccount)
      .sort((x, y) => x.grant_ends_at! - y.grant_ends_at!);
    for (const account of changed) await core.writeEffects(tx, effectsFor?.(account));
    return changed;
  });
}

export async function nextGrantChangeAt(core: PostgresCore, aheadMs: number): Promise<number | null> {
  const row = await core.one(
    () => core.sql`SELECT min(CASE WHEN health = 'healthy' THEN grant_ends_at - ${aheadMs}
                                   ELSE grant_ends_at END) AS at
                   FROM accounts
                   WHERE mode = 'live' AND grant_ends_at IS NOT NULL AND health <> 'reauth_required'`,
  );
  return row?.at == null ? null : Number(row.at);
}

export async function listAccountsWithoutGrantEnd(
  core: PostgresCore,
  platforms: readonly NetworkId[],
  after: { user_id: string; platform: NetworkId } | null,
  limit: number,
): Promise<AccountRecord[]> {
  if (platforms.length === 0) return [];
  const userId = after?.user_id ?? "";
  const platform = after?.platform ?? "";
  return (
    await core.rows(
      () => core.sql`SELECT * FROM accounts
                     WHERE mode = 'live' AND credentials IS NOT NULL AND grant_ends_at IS NULL
                       AND platform IN ${core.sql(platforms as NetworkId[])}
                       AND (user_id > ${userId} OR (user_id = ${userId} AND platform > ${platform}))
                     ORDER BY user_id, platform LIMIT ${limit}`,
    )
  ).map(toAccount);
}

export async function fillGrantEnd(
  core: PostgresCore,
  userId: string,
  platform: NetworkId,
  grantEndsAt: number,
  expected: string,
): Promise<boolean> {
  return core.tx(async (tx) => {
    const filled = await tx`UPDATE accounts SET grant_ends_at = ${grantEndsAt}
                            WHERE user_id = ${userId} AND mode = 'live' AND platform = ${platform}
                              AND grant_ends_at IS NULL AND credentials = ${expected}
                            RETURNING user_id`;
    // Every instance's sweep of ending grants looks again at when it next has something to do.
    if (filled.length > 0) await core.wake(tx, "grants");
    return filled.length > 0;
  });
}

export async function putOAuthState(core: PostgresCore, record: OAuthStateRecord): Promise<void> {
  await core.tx(async (tx) => {
    await tx`DELETE FROM oauth_states WHERE expires_at <= ${record.created_at}`;
    await tx`INSERT INTO oauth_states (state_hash, user_id, platform, secret, created_at, expires_at)
             VALUES (${record.state_hash}, ${record.user_id}, ${record.platform}, ${record.secret},
                     ${record.created_at}, ${record.expires_at})`;
  });
}

export async function takeOAuthState(
  core: PostgresCore,
  stateHash: string,
  now: number,
): Promise<OAuthStateRecord | null> {
  // DELETE … RETURNING takes the row in one statement: of two callbacks with one state, one gets it.
  const row = await core.one(
    () => core.sql`DELETE FROM oauth_states WHERE state_hash = ${stateHash} RETURNING *`,
  );
  if (!row || Number(row.expires_at) <= now) return null;
  return toOAuthState(row);
}
