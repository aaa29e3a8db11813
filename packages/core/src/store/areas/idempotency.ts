/**
 * A request made with an Idempotency-Key, scoped to (user_id, key). While the first request runs the
 * record is in flight (status and body null); afterwards it holds the response to replay.
 */
export interface IdempotencyRecord {
  user_id: string;
  key: string;
  /** What makes a retry "the same request": method, path and query, and a hash of the body. */
  fingerprint: string;
  /** The stored response, or null while the first request is in flight. */
  status: number | null;
  /** The stored response body (JSON text), or null while in flight. */
  body: string | null;
  created_at: number;
  /** After this time the record no longer counts and the key may be used again. */
  expires_at: number;
}

/**
 * An IdempotencyRecord that holds its answer: the status and body a retry replays. With `claim`, the
 * write carrying it is also the request's claim of the key (no in-flight record was written before it):
 * when a record for (user_id, key) that has not expired at `created_at` is already there, the write
 * changes nothing and fails with IdempotencyKeyTaken, so of two requests racing with one key (on one
 * instance or several) exactly one makes its change.
 */
export type IdempotencyAnswer = IdempotencyRecord & { status: number; body: string; claim?: true };

/** Requests made with an Idempotency-Key: claimed, answered, and replayed. */
export interface IdempotencyStore {
  // Idempotency keys
  /**
   * Claims (user_id, key) for a request: when no record exists for them, or the one there expired at
   * or before `record.created_at`, stores `record` (in flight) and returns null. Otherwise returns the
   * record already there and changes nothing. Atomic: of two concurrent claims, one gets null.
   */
  beginIdempotentRequest(record: IdempotencyRecord): Promise<IdempotencyRecord | null>;
  /**
   * The record for (user_id, key) that has not expired at `now` (in flight or holding its answer), or
   * null. Reads only: a request whose first write claims the key (`IdempotencyAnswer.claim`) looks here
   * first, so a retry of a finished request replays its answer instead of running again.
   */
  findIdempotentRequest(userId: string, key: string, now: number): Promise<IdempotencyRecord | null>;
  /**
   * Stores the response of the request and when the record expires, over the record there (in
   * flight, or holding the answer its change wrote through `Effects.idempotency`).
   */
  completeIdempotentRequest(
    userId: string,
    key: string,
    response: { status: number; body: string; expires_at: number },
  ): Promise<void>;
  /**
   * Forgets the record while it is in flight (a response that is not kept, or a request that failed
   * before changing anything), freeing the key. A record that holds an answer stays: its change was
   * written, and a retry must replay it rather than make the change again.
   */
  releaseIdempotentRequest(userId: string, key: string): Promise<void>;
  /**
   * After a crash: forgets every record still in flight and returns how many. A change and its answer
   * are written together, so a request whose record is still in flight changed nothing, and its key
   * may be used again at once rather than after the in-flight lease. Only right when no other process
   * serves requests on this store (one server per database): a shared store frees nothing and answers 0.
   */
  releaseInterruptedIdempotentRequests(): Promise<number>;
}
