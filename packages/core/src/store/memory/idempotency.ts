import { IdempotencyKeyTaken } from "../idempotency-key-taken.ts";
import type { IdempotencyAnswer, IdempotencyRecord } from "../types.ts";
import { copy, type MemoryTables } from "./tables.ts";

export async function beginIdempotentRequest(
  db: MemoryTables,
  record: IdempotencyRecord,
): Promise<IdempotencyRecord | null> {
  const k = `${record.user_id}|${record.key}`;
  const existing = db.idempotency.get(k);
  if (existing && existing.expires_at > record.created_at) return copy(existing);
  db.idempotency.set(k, copy(record));
  db.forgetExpiredKeys(record.created_at);
  return null;
}

export async function findIdempotentRequest(
  db: MemoryTables,
  userId: string,
  key: string,
  now: number,
): Promise<IdempotencyRecord | null> {
  const record = db.idempotency.get(`${userId}|${key}`);
  return record && record.expires_at > now ? copy(record) : null;
}

/** A write that claims its key (`IdempotencyAnswer.claim`) fails when a live record holds it. */
export function refuseTakenClaim(db: MemoryTables, answer: IdempotencyAnswer | undefined): void {
  if (!answer?.claim) return;
  const existing = db.idempotency.get(`${answer.user_id}|${answer.key}`);
  if (existing && existing.expires_at > answer.created_at) {
    throw new IdempotencyKeyTaken(answer.user_id, answer.key);
  }
}

export async function completeIdempotentRequest(
  db: MemoryTables,
  userId: string,
  key: string,
  response: { status: number; body: string; expires_at: number },
): Promise<void> {
  const record = db.idempotency.get(`${userId}|${key}`);
  if (!record) return;
  record.status = response.status;
  record.body = response.body;
  record.expires_at = response.expires_at;
}

export async function releaseIdempotentRequest(db: MemoryTables, userId: string, key: string): Promise<void> {
  const k = `${userId}|${key}`;
  if (db.idempotency.get(k)?.status === null) db.idempotency.delete(k);
}

export async function releaseInterruptedIdempotentRequests(db: MemoryTables): Promise<number> {
  let released = 0;
  for (const [k, record] of db.idempotency) {
    if (record.status !== null) continue;
    db.idempotency.delete(k);
    released++;
  }
  return released;
}
