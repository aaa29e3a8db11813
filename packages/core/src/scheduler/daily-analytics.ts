import type { Analytics } from "../contract/resources.ts";
import { newId } from "../ids.ts";
import type { Logger } from "../service/logger.ts";
import type { Store } from "../store/types.ts";
import type { Clock, TimerHandle } from "../time/clock.ts";

const DAY = 86_400_000;

export interface DailyAnalyticsOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** The user's analytics summary as it stands. */
  summarize: (userId: string) => Promise<Analytics>;
}

/**
 * Writes analytics.daily for every user when a UTC day ends: the summary as it stood at the end of
 * that day (figures are cumulative, as GET /analytics reports them), plus the day's date. Only users
 * with an endpoint subscribed to analytics.daily get one: for the others it would reach no one.
 */
export class DailyAnalytics {
  private readonly options: DailyAnalyticsOptions;
  private timer: TimerHandle | null = null;
  private running: Promise<void> | null = null;

  constructor(options: DailyAnalyticsOptions) {
    this.options = options;
  }

  start(): void {
    if (this.timer === null) this.arm();
  }

  async stop(): Promise<void> {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Writes the events for the day that ended at `dayEnd` (UTC midnight). */
  async run(dayEnd: number): Promise<void> {
    const { store, clock, summarize } = this.options;
    const date = new Date(dayEnd - DAY).toISOString().slice(0, 10);
    const now = clock.now();
    for (const user of await store.listUsers()) {
      const subscribed = (await store.listWebhooks(user.id)).some(
        (w) => w.status === "enabled" && w.events.includes("analytics.daily"),
      );
      if (!subscribed) continue;
      await store.appendEvents([
        {
          id: newId("evt", now),
          user_id: user.id,
          type: "analytics.daily",
          created: Math.floor(now / 1000),
          data: { ...(await summarize(user.id)), date },
        },
      ]);
    }
  }

  private arm(): void {
    const { clock } = this.options;
    const next = Math.floor(clock.now() / DAY) * DAY + DAY;
    this.timer = clock.setTimeout(() => this.onTimer(next), next - clock.now());
  }

  private onTimer(dayEnd: number): Promise<void> {
    this.timer = null;
    this.running = this.run(dayEnd)
      .catch((err) => this.options.logger.error({ err }, "analytics.daily failed"))
      .finally(() => {
        this.running = null;
      });
    this.arm();
    return this.running;
  }
}
