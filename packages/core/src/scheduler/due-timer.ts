import type { Logger } from "../logger.ts";
import { type Clock, MAX_TIMER_DELAY_MS, type TimerHandle } from "../time/clock.ts";

export interface DueWork {
  /** When work is due next, read from the store; null when none is. */
  next(): Promise<number | null>;
  /** Does what is due at `now` (claims, so two processes never take the same work). */
  run(now: number): Promise<void>;
}

/**
 * One timer set for the earliest due work instead of polling, moved earlier when sooner work is
 * announced (`notify`) and re-armed from the store after every run; a failed run is tried again after
 * `retryDelayMs`. The post scheduler's timer, and the one of target retries, metrics reads and ending grants.
 */
export class DueTimer {
  private timer: TimerHandle | null = null;
  private armedFor: number | null = null;
  private running: Promise<void> | null = null;
  private notifiedDuringRun: number | null = null;
  private started = false;

  private readonly name: string;
  private readonly work: DueWork;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly retryDelayMs: number;

  constructor(name: string, work: DueWork, clock: Clock, logger: Logger, retryDelayMs = 5_000) {
    this.name = name;
    this.work = work;
    this.clock = clock;
    this.logger = logger;
    this.retryDelayMs = retryDelayMs;
  }

  async start(): Promise<void> {
    this.started = true;
    await this.rearm();
  }

  async stop(): Promise<void> {
    this.started = false;
    this.disarm();
    await this.running;
  }

  /** Work is due at `at`: the timer moves earlier when needed. */
  notify(at: number): void {
    if (!this.started) return;
    if (this.running) {
      this.notifiedDuringRun = Math.min(this.notifiedDuringRun ?? at, at);
      return;
    }
    if (this.armedFor === null || at < this.armedFor) this.arm(at);
  }

  /** Runs what is due now (joins a run in progress). */
  runDue(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.runOnce().finally(() => {
      this.running = null;
      const notified = this.notifiedDuringRun;
      this.notifiedDuringRun = null;
      if (notified !== null) this.notify(notified);
    });
    return this.running;
  }

  private async runOnce(): Promise<void> {
    try {
      await this.work.run(this.clock.now());
      await this.rearm();
    } catch (err) {
      this.logger.error({ err }, `${this.name} failed; retrying`);
      if (this.started) this.arm(this.clock.now() + this.retryDelayMs);
    }
  }

  /** When the timer fires next (for diagnostics and tests), or null. */
  get nextRunAt(): number | null {
    return this.armedFor;
  }

  /** Re-reads when work is due next and sets the timer for it. */
  async rearm(): Promise<void> {
    if (!this.started) return;
    const next = await this.work.next();
    this.disarm();
    if (next !== null) this.arm(next);
  }

  private arm(at: number): void {
    if (!this.started) return;
    this.disarm();
    const delay = Math.min(Math.max(0, at - this.clock.now()), MAX_TIMER_DELAY_MS);
    this.armedFor = at;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.armedFor = null;
      if (this.clock.now() < at) {
        this.arm(at);
        return undefined;
      }
      return this.runDue();
    }, delay);
  }

  private disarm(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = null;
  }
}
