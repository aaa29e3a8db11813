import type { Logger } from "../service/logger.ts";
import type { PostRecord, Store } from "../store/types.ts";
import { type Clock, MAX_TIMER_DELAY_MS, type TimerHandle } from "../time/clock.ts";

export interface SchedulerOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Publishes one post the scheduler has claimed (moved to `publishing`). */
  publish: (post: PostRecord, now: number) => Promise<void>;
  /** Posts claimed per store call. */
  batchSize?: number;
  /** Wait before retrying after the store failed. */
  retryDelayMs?: number;
}

/**
 * Publishes scheduled posts at their due time. It keeps one timer, set for the earliest due post
 * (store.nextDueAt), instead of polling: the timer is moved earlier when a sooner post is created and
 * re-armed from the store after every run. Claiming is atomic in the store, so two schedulers sharing
 * a store never publish a post twice.
 */
export class Scheduler {
  private readonly options: Required<SchedulerOptions>;
  private timer: TimerHandle | null = null;
  private armedFor: number | null = null;
  private running: Promise<void> | null = null;
  private runAgain = false;
  private notifiedDuringRun: number | null = null;
  private started = false;

  constructor(options: SchedulerOptions) {
    this.options = { batchSize: 50, retryDelayMs: 5_000, ...options };
  }

  /** Releases posts a crash left in `publishing`, then arms the timer for the next due post. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    const released = await this.options.store.releaseInterruptedPublishing();
    if (released > 0) this.options.logger.info({ released }, "released posts interrupted while publishing");
    await this.rearm();
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    this.started = false;
    this.disarm();
    await this.running;
  }

  /** Tells the scheduler a post is due at `at`: the timer moves earlier when needed. */
  notify(at: number): void {
    if (!this.started) return;
    if (this.running) {
      // The run re-arms when it ends; it must not miss a post that became due meanwhile.
      this.notifiedDuringRun = Math.min(this.notifiedDuringRun ?? at, at);
      return;
    }
    if (this.armedFor === null || at < this.armedFor) this.arm(at);
  }

  /** Re-reads the next due time from the store and sets the timer for it. */
  async rearm(): Promise<void> {
    if (!this.started) return;
    const next = await this.options.store.nextDueAt();
    const notified = this.takeNotified();
    const at = next === null ? notified : notified === null ? next : Math.min(next, notified);
    this.disarm();
    if (at !== null) this.arm(at);
  }

  /** Publishes everything due now; resolves when done (a second call joins the run in progress). */
  runDue(): Promise<void> {
    if (this.running) {
      this.runAgain = true;
      return this.running;
    }
    this.running = this.runLoop().finally(() => {
      this.running = null;
      const notified = this.takeNotified();
      if (notified !== null) this.notify(notified);
    });
    return this.running;
  }

  /** When the timer will fire next (for diagnostics and tests), or null. */
  get nextRunAt(): number | null {
    return this.armedFor;
  }

  private async runLoop(): Promise<void> {
    const { store, clock, logger, batchSize, retryDelayMs } = this.options;
    try {
      do {
        this.runAgain = false;
        for (;;) {
          const now = clock.now();
          const claimed = await store.claimDuePosts(now, batchSize);
          for (const post of claimed) await this.publishOne(post, now);
          if (claimed.length < batchSize) break;
        }
      } while (this.runAgain);
      await this.rearm();
    } catch (err) {
      logger.error({ err }, "scheduler run failed; retrying");
      if (this.started) {
        this.disarm();
        this.arm(clock.now() + retryDelayMs);
      }
    }
  }

  private async publishOne(post: PostRecord, now: number): Promise<void> {
    const { store, logger, publish, retryDelayMs } = this.options;
    try {
      await publish(post, now);
    } catch (err) {
      logger.error({ err, post_id: post.id }, "publishing a scheduled post failed; it will be retried");
      await store.transitionPost(post.id, ["publishing"], {
        status: "scheduled",
        scheduled_at: now + retryDelayMs,
      });
    }
  }

  private takeNotified(): number | null {
    const at = this.notifiedDuringRun;
    this.notifiedDuringRun = null;
    return at;
  }

  private arm(at: number): void {
    if (!this.started) return;
    this.disarm();
    const { clock } = this.options;
    // Node caps timers at about 24.8 days: a later post is reached in steps.
    const delay = Math.min(Math.max(0, at - clock.now()), MAX_TIMER_DELAY_MS);
    this.armedFor = at;
    this.timer = clock.setTimeout(() => this.onTimer(at), delay);
  }

  private disarm(): void {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = null;
  }

  private onTimer(at: number): Promise<void> | undefined {
    this.timer = null;
    this.armedFor = null;
    if (this.options.clock.now() < at) {
      this.arm(at);
      return undefined;
    }
    return this.runDue();
  }
}
