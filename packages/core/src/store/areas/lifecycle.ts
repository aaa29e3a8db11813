/** What a shared store tells every instance using it, as another instance writes (see Store.listen). */
export interface StoreWakeups {
  /** A post became due at `at` (created or rescheduled): the scheduler's timer may need to move earlier. */
  postDue(at: number): void;
  /** Deliveries became owed (events written, an endpoint enabled): the delivery worker looks again. */
  deliveriesOwed(): void;
  /**
   * An instance started a retry of a network at `at`: should it die making it, the in-flight sweep of
   * every other instance recovers it once the attempt's lease runs out.
   */
  attemptStarted?(at: number): void;
  /**
   * An account was connected with a grant we cannot refresh (grant_ends_at): the sweep of ending
   * grants reads again when it next has something to do (nextGrantChangeAt).
   */
  grantsChanged?(): void;
  /**
   * A network's next attempt was scheduled for `at` (a failed attempt's retry, pacing): the retry
   * worker's timer may need to move earlier. The instance that wrote it may die before `at`.
   */
  retryDue?(at: number): void;
}

/**
 * What every store has, whatever it keeps: whether it is shared, its health and its end, and what a
 * shared store adds to coordinate the instances using it (wake-ups, per-user locks).
 */
export interface LifecycleStore {
  /**
   * Whether several server processes may use this store at once (PostgreSQL). Then nothing is released
   * at start, since what looks interrupted may belong to a live instance: a claimed post is leased and
   * claimed again once its lease runs out, as deliveries are, and a key left in flight frees itself when
   * its in-flight lease ends. Limits are counted in the store (countKeyRequest). A store one process
   * holds alone (memory, SQLite) is not shared: it releases at start and the rate limit counts in memory.
   */
  readonly shared: boolean;
  /** Answers when the store is reachable (for /healthz). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * A shared store: calls `wakeups` when another instance (or this one) writes something that is due,
   * so instances need not poll; answers a function that stops listening. Absent on a store that one
   * process holds alone, where the service's own calls are the only writes.
   */
  listen?(wakeups: StoreWakeups): Promise<() => Promise<void>>;
  /**
   * A shared store: runs `work` while no other caller, in any instance, runs work of the same user
   * through this method (a lock held in the database), so a rule that reads a count and then writes
   * (posts per month, connected profiles) holds across instances. Absent where one process holds the
   * store and the service's own per-user queue is enough.
   */
  exclusivelyForUser?<T>(userId: string, work: () => Promise<T>): Promise<T>;
}
