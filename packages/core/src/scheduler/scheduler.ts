import type { Logger } from "../logger.ts";
import type { PostRecord, Store } from "../store/types.ts";
import type { Clock } from "../time/clock.ts";
import { DueTimer } from "./due-timer.ts";
import { LanePool } from "./lane-pool.ts";

export interface SchedulerOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Publishes one post the scheduler has claimed (moved to `publishing`). */
  publish: (post: PostRecord, now: number) => Promise<void>;
  /** Posts claimed per store call; by default as schedulerWidthFor(store) says. */
  batchSize?: number;
  /**
   * Claimed posts published at once (PUBLISH_CONCURRENCY by default). Most of a post's time is waiting
   * (for the networks, and on a shared store for the database's answers), so posts side by side use
   * that wait; a live user's posts still go one after the other (see laneOf). A slot that frees takes
   * the next claimed post at once; at most concurrency + batchSize claimed posts are held.
   */
  concurrency?: number;
  /** Wait before retrying after the store failed. */
  retryDelayMs?: number;
}

/**
 * Publishes scheduled posts at their due time. It keeps one timer (a DueTimer), set for the earliest
 * due post (store.nextDueAt), instead of polling: the timer is moved earlier when a sooner post is
 * created and re-armed from the store after every run. Claiming is atomic in the store, so two
 * schedulers sharing a store never publish a post twice. Claimed posts are published side by side,
 * `concurrency` at once, and more are claimed as slots free.
 */
export class Scheduler {
  private readonly options: Required<SchedulerOptions>;
  private readonly timer: DueTimer;
  private runAgain = false;
  private started = false;

  constructor(options: SchedulerOptions) {
    this.options = { ...schedulerWidthFor(options.store), retryDelayMs: 5_000, ...options };
    const { store, clock, logger, retryDelayMs } = this.options;
    this.timer = new DueTimer(
      "scheduler run",
      { next: () => store.nextDueAt(), run: () => this.runLoop() },
      clock,
      logger,
      retryDelayMs,
    );
  }

  /** Releases posts a crash left in `publishing`, then arms the timer for the next due post. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const released = await this.options.store.releaseInterruptedPublishing();
    if (released > 0) this.options.logger.info({ released }, "released posts interrupted while publishing");
    await this.timer.start();
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    this.started = false;
    await this.timer.stop();
  }

  /** Tells the scheduler a post is due at `at`: the timer moves earlier when needed. */
  notify(at: number): void {
    this.timer.notify(at);
  }

  /** Re-reads the next due time from the store and sets the timer for it. */
  rearm(): Promise<void> {
    return this.timer.rearm();
  }

  /**
   * Publishes everything due now; resolves when done. A second call joins the run in progress and
   * makes it claim once more, so a post that became due during the run is not left to the timer.
   */
  runDue(): Promise<void> {
    // Cleared as a run starts: it matters only to a run already going.
    this.runAgain = true;
    return this.timer.runDue();
  }

  /** When the timer will fire next (for diagnostics and tests), or null. */
  get nextRunAt(): number | null {
    return this.timer.nextRunAt;
  }

  private async runLoop(): Promise<void> {
    const { store, clock, batchSize, concurrency } = this.options;
    // Each post's attempts are timed when they start, not when the batch was claimed: a network's
    // pacing counts an account's attempts by when they were made.
    const pool = new LanePool<PostRecord>(concurrency, laneOf, (post) => this.publishOne(post, clock.now()));
    do {
      this.runAgain = false;
      for (;;) {
        // Claimed posts wait in memory for a slot (and for their lane): a batch is claimed only when
        // the ones held leave room for it, so no more than concurrency + batchSize are ever held, and a
        // slot that frees takes the next post at once instead of waiting for the slowest of a batch.
        await pool.roomFor(concurrency);
        const claimed = await store.claimDuePosts(clock.now(), batchSize);
        for (const post of claimed) pool.add(post);
        if (claimed.length < batchSize) break;
      }
      // The posts held finish; a post that fell due meanwhile is claimed at once (runDue).
      while (pool.held > 0 && !this.runAgain) await pool.roomFor(pool.held - 1);
    } while (this.runAgain);
  }

  private async publishOne(post: PostRecord, now: number): Promise<void> {
    const { store, logger, publish, retryDelayMs } = this.options;
    try {
      await publish(post, now);
    } catch (err) {
      logger.error({ err, post_id: post.id }, "publishing a scheduled post failed; it will be retried");
      try {
        await store.transitionPost(post.id, ["publishing"], {
          status: "scheduled",
          scheduled_at: now + retryDelayMs,
        });
      } catch (storeErr) {
        // It stays publishing; the next start releases it (releaseInterruptedPublishing).
        logger.error({ err: storeErr, post_id: post.id }, "putting a failed scheduled post back failed");
      }
    }
  }
}

/**
 * Scheduled posts published at once, on any store, unless publishing.concurrency says otherwise. A
 * scheduled publish spends nearly all its time waiting for the networks (200–1,000 ms a call), so how
 * many run at once bounds the posts a second an instance publishes, not its CPU: 32 at once kept 10,000
 * posts due at the top of the hour over a minute late, and 256 still took 40 s with networks answering
 * in 1,000 ms. 1,024 at once is up to about 1,000 posts a second at 1,000 ms, about what one core's
 * CPU publishes. What it costs is bounded: one socket (an open file) and a few tens of KB per publish in
 * flight (a burst of 1,000 at once peaked at 256 MiB against 182 MiB with 256). On a shared store
 * (PostgreSQL) a publish waiting for a network holds no pool connection (each store call takes one only
 * for its own statements), so it does not grow with the pool. docs/performance.md ("Top of the hour")
 * says how to size it.
 */
export const PUBLISH_CONCURRENCY = 1024;

/**
 * How many due posts the scheduler claims at a time, and publishes at once, by store. On a store one
 * process holds alone (memory, SQLite) every write of one turn of the event loop shares a commit (the
 * SQLite store's group commit), so it claims 200 at a time; a shared store (PostgreSQL) claims 50, so
 * that several instances share a burst of due posts instead of one taking it all.
 */
function schedulerWidthFor(store: Pick<Store, "shared">): {
  batchSize: number;
  concurrency: number;
} {
  return store.shared
    ? { batchSize: 50, concurrency: PUBLISH_CONCURRENCY }
    : { batchSize: 200, concurrency: PUBLISH_CONCURRENCY };
}

/**
 * Posts in one lane are published one after the other. A live post's attempts are paced per account
 * (a network's posts per hour for one account), and the check of what an account has used reads the
 * attempts already started: two posts of one user side by side could both pass it for the last slot.
 * So a live user's posts keep one lane; sandbox posts have no pacing and each go on their own.
 */
function laneOf(post: PostRecord): string {
  return post.mode === "live" ? `user:${post.user_id}` : `post:${post.id}`;
}
