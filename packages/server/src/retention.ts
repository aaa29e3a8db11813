import type { Clock, Store, TimerHandle } from "@socialpub/core";
import type { Logger } from "./logging.ts";

const DAY = 86_400_000;

export const DEFAULT_RETENTION_DAYS = 30;
/** How often the delivery history is pruned, besides at start. */
export const DEFAULT_PRUNE_INTERVAL_MS = 3_600_000;
/**
 * Events removed per store step. Each step is one write transaction, and a request's write waits
 * behind it: small steps, with a turn of the event loop between them, keep those waits short.
 */
const BATCH = 500;

export interface RetentionOptions {
  /** Events older than this many days, with nothing still owed for them, are removed. */
  days: number;
  /** Default one hour. */
  intervalMs?: number;
}

/**
 * Keeps the webhook outbox from growing forever: at start and then every `intervalMs`, removes the
 * events older than the retention window whose deliveries are all delivered or failed for good (or
 * that had none), with their deliveries and delivery attempts. Events still owed to an endpoint stay
 * until their delivery ends. Posts, accounts and analytics are not touched.
 */
export class HistoryPruner {
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly windowMs: number;
  private readonly intervalMs: number;
  private timer: TimerHandle | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(options: RetentionOptions & { store: Store; clock: Clock; logger: Logger }) {
    this.store = options.store;
    this.clock = options.clock;
    this.logger = options.logger;
    this.windowMs = options.days * DAY;
    this.intervalMs = options.intervalMs ?? DEFAULT_PRUNE_INTERVAL_MS;
  }

  /** Prunes at once (in the background), then every interval. */
  start(): void {
    if (this.timer === null && this.running === null) this.timer = this.clock.setTimeout(() => this.run(), 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private run(): Promise<void> {
    this.timer = null;
    this.running = this.prune()
      .catch((err) => this.logger.error({ err }, "pruning the delivery history failed; retried later"))
      .finally(() => {
        this.running = null;
        if (!this.stopped) this.timer = this.clock.setTimeout(() => this.run(), this.intervalMs);
      });
    return this.running;
  }

  private async prune(): Promise<void> {
    const before = this.clock.now() - this.windowMs;
    let removed = 0;
    for (;;) {
      const count = await this.store.pruneDeliveryHistory(before, BATCH);
      removed += count;
      if (count < BATCH || this.stopped) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (removed > 0) {
      this.logger.info(
        { events: removed, before: new Date(before).toISOString() },
        "pruned delivery history older than the retention window",
      );
    }
  }
}
