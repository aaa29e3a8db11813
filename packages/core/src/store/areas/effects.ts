import type { IdempotencyAnswer } from "./idempotency.ts";
import type { NewEvent } from "./outbox.ts";

/** Side effects written in the same transaction as the change. */
export interface Effects {
  events?: NewEvent[];
  /**
   * The answer of the request made with an Idempotency-Key that makes this change. It replaces the
   * request's in-flight record for (user_id, key) (or is inserted when that record is gone), so the
   * change and the answer a retry replays are written together or not at all.
   */
  idempotency?: IdempotencyAnswer;
}
