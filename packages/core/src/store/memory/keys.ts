import type { ApiKeyRecord, AuthorizedCall, Effects, UserRecord } from "../types.ts";
import { copy, type MemoryTables } from "./tables.ts";

export async function createUser(db: MemoryTables, user: UserRecord): Promise<void> {
  if (db.users.has(user.id)) throw new Error(`User ${user.id} already exists.`);
  if ([...db.users.values()].some((u) => u.email === user.email)) {
    throw new Error(`A user with e-mail ${user.email} already exists.`);
  }
  db.users.set(user.id, copy(user));
}

export async function getUser(db: MemoryTables, id: string): Promise<UserRecord | null> {
  const user = db.users.get(id);
  return user ? copy(user) : null;
}

export async function findUserByEmail(db: MemoryTables, email: string): Promise<UserRecord | null> {
  const user = [...db.users.values()].find((u) => u.email === email);
  return user ? copy(user) : null;
}

export async function listUsers(db: MemoryTables): Promise<UserRecord[]> {
  return [...db.users.values()].sort((a, b) => a.created_at - b.created_at).map(copy);
}

export async function createKey(db: MemoryTables, key: ApiKeyRecord): Promise<void> {
  if ([...db.keys.values()].some((k) => k.hash === key.hash || k.id === key.id)) {
    throw new Error(`Key ${key.id} already exists.`);
  }
  db.keys.set(key.id, copy(key));
}

export async function findKeyByHash(db: MemoryTables, hash: string): Promise<ApiKeyRecord | null> {
  const key = [...db.keys.values()].find((k) => k.hash === hash);
  return key ? copy(key) : null;
}

export async function listKeys(db: MemoryTables, userId: string): Promise<ApiKeyRecord[]> {
  return [...db.keys.values()].filter((k) => k.user_id === userId).map(copy);
}

export async function revokeKey(
  db: MemoryTables,
  id: string,
  at: number,
  effects?: Effects,
): Promise<boolean> {
  const key = db.keys.get(id);
  if (!key || key.revoked_at !== null) return false;
  key.revoked_at = at;
  db.writeEffects(effects);
  return true;
}

export async function markKeyUsed(db: MemoryTables, id: string, at: number): Promise<void> {
  const key = db.keys.get(id);
  if (key && (key.last_used_at === undefined || key.last_used_at < at)) key.last_used_at = at;
}

export async function authorizeCall(
  db: MemoryTables,
  keyHash: string,
  month: string,
): Promise<AuthorizedCall | null> {
  const key = [...db.keys.values()].find((k) => k.hash === keyHash);
  const user = key ? db.users.get(key.user_id) : undefined;
  if (!key || key.revoked_at !== null || !user) return null;
  const calls = addApiCall(db, user.id, month);
  return { key: copy(key), user: copy(user), calls, postsVersion: db.postsVersion };
}

export async function incrementApiCalls(db: MemoryTables, userId: string, month: string): Promise<number> {
  return addApiCall(db, userId, month);
}

export function addApiCall(db: MemoryTables, userId: string, month: string): number {
  const k = `${userId}|${month}`;
  const next = (db.apiCalls.get(k) ?? 0) + 1;
  db.apiCalls.set(k, next);
  return next;
}

export async function getApiCalls(db: MemoryTables, userId: string, month: string): Promise<number> {
  return db.apiCalls.get(`${userId}|${month}`) ?? 0;
}
