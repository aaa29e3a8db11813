import type { NetworkId } from "../../contract/networks.ts";
import type { AccountPatch, AccountRecord, Effects, KeyMode, OAuthStateRecord } from "../types.ts";
import { accountKey, byKey, copy, endingGrantHealth, type MemoryTables } from "./tables.ts";

export async function listAccounts(
  db: MemoryTables,
  userId: string,
  mode: KeyMode,
): Promise<AccountRecord[]> {
  return [...db.accounts.values()].filter((a) => a.user_id === userId && a.mode === mode).map(copy);
}

export async function getAccount(
  db: MemoryTables,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
): Promise<AccountRecord | null> {
  const account = db.accounts.get(accountKey(userId, mode, platform));
  return account ? copy(account) : null;
}

export async function putAccount(db: MemoryTables, account: AccountRecord, effects?: Effects): Promise<void> {
  const key = accountKey(account.user_id, account.mode, account.platform);
  // Replacing keeps the account's place in the order it was first connected (as SQLite's upsert does).
  const kept = copy(account);
  if (kept.grant_ends_at == null) delete kept.grant_ends_at;
  db.accounts.set(key, kept);
  db.writeEffects(effects);
}

export async function updateAccount(
  db: MemoryTables,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  patch: AccountPatch,
  effectsFor?: (before: AccountRecord, after: AccountRecord) => Effects,
): Promise<AccountRecord | null> {
  const account = db.accounts.get(accountKey(userId, mode, platform));
  if (!account) return null;
  const before = copy(account);
  if (patch.handle !== undefined) account.handle = patch.handle;
  if (patch.followers !== undefined) account.followers = patch.followers;
  if (patch.health !== undefined) account.health = patch.health;
  db.writeEffects(effectsFor?.(before, copy(account)));
  return copy(account);
}

export async function setAccountCredentials(
  db: MemoryTables,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  credentials: string,
  expected?: string,
): Promise<boolean> {
  const account = db.accounts.get(accountKey(userId, mode, platform));
  if (!account) return false;
  if (expected !== undefined && account.credentials !== expected) return false;
  account.credentials = credentials;
  return true;
}

export async function deleteAccount(
  db: MemoryTables,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  effects?: Effects,
): Promise<boolean> {
  const removed = db.accounts.delete(accountKey(userId, mode, platform));
  if (removed) db.writeEffects(effects);
  return removed;
}

export async function countAccountsWithCredentials(db: MemoryTables): Promise<number> {
  return [...db.accounts.values()].filter((a) => a.credentials !== null).length;
}

export async function settleEndingGrants(
  db: MemoryTables,
  now: number,
  aheadMs: number,
  limit: number,
  effectsFor?: (account: AccountRecord) => Effects,
): Promise<AccountRecord[]> {
  const due = [...db.accounts.values()]
    .filter((a) => endingGrantHealth(a, now, aheadMs) !== null)
    .sort((a, b) => a.grant_ends_at! - b.grant_ends_at!)
    .slice(0, limit);
  return due.map((account) => {
    account.health = endingGrantHealth(account, now, aheadMs)!;
    db.writeEffects(effectsFor?.(copy(account)));
    return copy(account);
  });
}

export async function nextGrantChangeAt(db: MemoryTables, aheadMs: number): Promise<number | null> {
  let next: number | null = null;
  for (const a of db.accounts.values()) {
    if (a.mode !== "live" || a.grant_ends_at === undefined || a.health === "reauth_required") continue;
    const at = a.health === "healthy" ? a.grant_ends_at - aheadMs : a.grant_ends_at;
    if (next === null || at < next) next = at;
  }
  return next;
}

export async function listAccountsWithoutGrantEnd(
  db: MemoryTables,
  platforms: readonly NetworkId[],
  after: { user_id: string; platform: NetworkId } | null,
  limit: number,
): Promise<AccountRecord[]> {
  const later = (a: AccountRecord) =>
    after === null ||
    a.user_id > after.user_id ||
    (a.user_id === after.user_id && a.platform > after.platform);
  return [...db.accounts.values()]
    .filter(
      (a) =>
        a.mode === "live" &&
        a.credentials !== null &&
        a.grant_ends_at === undefined &&
        platforms.includes(a.platform) &&
        later(a),
    )
    .sort((a, b) => byKey(a.user_id, b.user_id) || byKey(a.platform, b.platform))
    .slice(0, limit)
    .map(copy);
}

export async function fillGrantEnd(
  db: MemoryTables,
  userId: string,
  platform: NetworkId,
  grantEndsAt: number,
  expected: string,
): Promise<boolean> {
  const account = db.accounts.get(accountKey(userId, "live", platform));
  if (!account || account.grant_ends_at !== undefined || account.credentials !== expected) return false;
  account.grant_ends_at = grantEndsAt;
  return true;
}

export async function putOAuthState(db: MemoryTables, record: OAuthStateRecord): Promise<void> {
  for (const [hash, pending] of db.oauthStates) {
    if (pending.expires_at <= record.created_at) db.oauthStates.delete(hash);
  }
  db.oauthStates.set(record.state_hash, copy(record));
}

export async function takeOAuthState(
  db: MemoryTables,
  stateHash: string,
  now: number,
): Promise<OAuthStateRecord | null> {
  const pending = db.oauthStates.get(stateHash);
  if (!pending) return null;
  db.oauthStates.delete(stateHash);
  return pending.expires_at > now ? pending : null;
}
