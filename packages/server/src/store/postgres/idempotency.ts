import { type IdempotencyAnswer, IdempotencyKeyTaken, type IdempotencyRecord } from "@socialpub/core";
import { toIdempotency } from "../rows.ts";
import type { PostgresCore, Tx } from "./core.ts";

/**
 * Replaces the request's in-flight record with its answer (or inserts it, should the claim be gone).
 * A write that is also the claim takes the key only from an expired record: of two transactions
 * inserting one key, the second waits for the first to commit, then finds its row and throws, and
 * its transaction, the change included, rolls back.
 */
export async function writeIdempotencyAnswer(tx: Tx, answer: IdempotencyAnswer): Promise<void> {
  if (answer.claim) {
    const claimed = await tx`
      INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at, expires_at)
      VALUES (${answer.user_id}, ${answer.key}, ${answer.fingerprint}, ${answer.status}, ${answer.body},
              ${answer.created_at}, ${answer.expires_at})
      ON CONFLICT (user_id, key) DO UPDATE SET
        fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
        created_at = excluded.created_at, expires_at = excluded.expires_at
      WHERE idempotency_keys.expires_at <= excluded.created_at
      RETURNING user_id`;
    if (claimed.length === 0) throw new IdempotencyKeyTaken(answer.user_id, answer.key);
    return;
  }
  await tx`
    INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at, expires_at)
    VALUES (${answer.user_id}, ${answer.key}, ${answer.fingerprint}, ${answer.status}, ${answer.body},
            ${answer.created_at}, ${answer.expires_at})
    ON CONFLICT (user_id, key) DO UPDATE SET
      fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
      created_at = excluded.created_at, expires_at = excluded.expires_at`;
}

export async function beginIdempotentRequest(
  core: PostgresCore,
  record: IdempotencyRecord,
): Promise<IdempotencyRecord | null> {
  return core.tx(async (tx) => {
    // The primary key decides races between instances: of two inserts of one key, the second waits
    // for the first to commit and then finds its row (and takes it over only when it has expired).
    const claimed = await tx`
      INSERT INTO idempotency_keys (user_id, key, fingerprint, status, body, created_at, expires_at)
      VALUES (${record.user_id}, ${record.key}, ${record.fingerprint}, ${record.status}, ${record.body},
              ${record.created_at}, ${record.expires_at})
      ON CONFLICT (user_id, key) DO UPDATE SET
        fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
        created_at = excluded.created_at, expires_at = excluded.expires_at
      WHERE idempotency_keys.expires_at <= excluded.created_at
      RETURNING user_id`;
    if (claimed.length > 0) return null;
    const [row] = await tx`SELECT * FROM idempotency_keys WHERE user_id = ${record.user_id}
                                                        AND key = ${record.key}`;
    return row ? toIdempotency(row) : null;
  });
}

export async function findIdempotentRequest(
  core: PostgresCore,
  userId: string,
  key: string,
  now: number,
): Promise<IdempotencyRecord | null> {
  const row = await core.one(
    () => core.sql`SELECT * FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}
                                                    AND expires_at > ${now}`,
  );
  return row ? toIdempotency(row) : null;
}

export async function completeIdempotentRequest(
  core: PostgresCore,
  userId: string,
  key: string,
  response: { status: number; body: string; expires_at: number },
): Promise<void> {
  await core.rows(
    () => core.sql`UPDATE idempotency_keys SET status = ${response.status}, body = ${response.body},
                                               expires_at = ${response.expires_at}
                   WHERE user_id = ${userId} AND key = ${key}`,
  );
}

export async function releaseIdempotentRequest(
  core: PostgresCore,
  userId: string,
  key: string,
): Promise<void> {
  await core.rows(
    () =>
      core.sql`DELETE FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key} AND status IS NULL`,
  );
}

export async function releaseInterruptedIdempotentRequests(): Promise<number> {
  // A key in flight may be another instance's request: it frees itself when its in-flight lease ends.
  return 0;
}

/** Removes records that expired before `now`, a batch at a time (the retention pass calls it). */
export async function pruneExpiredIdempotencyKeys(
  core: PostgresCore,
  now: number,
  limit = 1000,
): Promise<number> {
  const rows = await core.rows(
    () => core.sql`DELETE FROM idempotency_keys WHERE (user_id, key) IN (
                     SELECT user_id, key FROM idempotency_keys WHERE expires_at <= ${now} LIMIT ${limit}
                     FOR UPDATE SKIP LOCKED)
                   RETURNING key`,
  );
  return rows.length;
}
