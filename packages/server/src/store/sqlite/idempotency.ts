import { type IdempotencyAnswer, IdempotencyKeyTaken, type IdempotencyRecord } from "@socialpub/core";
import { toIdempotency } from "../rows.ts";
import type { SqliteCore } from "./core.ts";

/**
 * Replaces the request's in-flight record with its answer (or inserts it, should the claim be gone).
 * A write that is also the claim inserts only where no live record is: otherwise it throws, and the
 * transaction around it, the change included, rolls back.
 */
export function writeIdempotencyAnswer(core: SqliteCore, answer: IdempotencyAnswer): void {
  if (answer.claim) {
    // Expired records are dead weight: the index on expires_at makes clearing them cheap.
    core.run("DELETE FROM idempotency_keys WHERE expires_at <= ?", answer.created_at);
    const inserted = core.run(
      `INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, key) DO NOTHING`,
      answer.user_id,
      answer.key,
      answer.fingerprint,
      answer.status,
      answer.body,
      answer.created_at,
      answer.expires_at,
    );
    if (inserted === 0) throw new IdempotencyKeyTaken(answer.user_id, answer.key);
    return;
  }
  core.run(
    `INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, key) DO UPDATE SET
       fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
       created_at = excluded.created_at, expires_at = excluded.expires_at`,
    answer.user_id,
    answer.key,
    answer.fingerprint,
    answer.status,
    answer.body,
    answer.created_at,
    answer.expires_at,
  );
}

export async function beginIdempotentRequest(
  core: SqliteCore,
  record: IdempotencyRecord,
): Promise<IdempotencyRecord | null> {
  return core.write(() => {
    const row = core.get(
      "SELECT * FROM idempotency_keys WHERE user_id = ? AND key = ? AND expires_at > ?",
      record.user_id,
      record.key,
      record.created_at,
    );
    if (row) return toIdempotency(row);
    // Expired records are dead weight: the index on expires_at makes clearing them cheap.
    core.run("DELETE FROM idempotency_keys WHERE expires_at <= ?", record.created_at);
    core.run(
      `INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      record.user_id,
      record.key,
      record.fingerprint,
      record.status,
      record.body,
      record.created_at,
      record.expires_at,
    );
    return null;
  });
}

export async function findIdempotentRequest(
  core: SqliteCore,
  userId: string,
  key: string,
  now: number,
): Promise<IdempotencyRecord | null> {
  const row = core.get(
    "SELECT * FROM idempotency_keys WHERE user_id = ? AND key = ? AND expires_at > ?",
    userId,
    key,
    now,
  );
  return row ? toIdempotency(row) : null;
}

export async function completeIdempotentRequest(
  core: SqliteCore,
  userId: string,
  key: string,
  response: { status: number; body: string; expires_at: number },
): Promise<void> {
  await core.write(() =>
    core.run(
      "UPDATE idempotency_keys SET status = ?, body = ?, expires_at = ? WHERE user_id = ? AND key = ?",
      response.status,
      response.body,
      response.expires_at,
      userId,
      key,
    ),
  );
}

export async function releaseIdempotentRequest(core: SqliteCore, userId: string, key: string): Promise<void> {
  await core.write(() =>
    core.run("DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND status IS NULL", userId, key),
  );
}

export async function releaseInterruptedIdempotentRequests(core: SqliteCore): Promise<number> {
  return core.write(() => core.run("DELETE FROM idempotency_keys WHERE status IS NULL"));
}
