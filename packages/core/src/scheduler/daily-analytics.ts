import type { Analytics } from "../contract/resources.ts";
import { newId } from "../ids.ts";
import type { Logger } from "../logger.ts";
import type { Store, UserRecord } from "../store/types.ts";
import type { Clock, TimerHandle } from "../time/clock.ts";

const DAY = 86_400_000;

/**
 * How many of the most recent days that ended are caught up when the service starts (or when a run
 * finds days it missed). A server down for longer writes the last week's events, not one per day it
 * was down: the figures are the summary as it stands when they are written (no history of metrics is
 * kept), so older days would only repeat the same numbers.
 */
export const ANALYTICS_CATCH_UP_DAYS = 7;

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
 * with an endpoint subscribed to analytics.daily get an event: for the others it would reach no one,
 * but their day is settled all the same.
 *
 * Each user's day is settled in one store step with its event (Store.settleAnalyticsDay), which records
 * it as the user's last day. So a crash in the middle of the users loses no one's event and writes no
 * one's twice, and `start()` writes the days that ended while the service was stopped — at most the
 * last ANALYTICS_CATCH_UP_DAYS, oldest first, with the summary as it stands then.
 */
export class DailyAnalytics {
  private readonly options: DailyAnalyticsOptions;
  private timer: TimerHandle | null = null;
  private running: Promise<void> | null = null;

  constructor(options: DailyAnalyticsOptions) {
    this.options = options;
  }

  /** Writes the days that ended and are not settled yet, then arms the timer for the next midnight. */
  async start(): Promise<void> {
    if (this.timer !== null) return;
    const { clock } = this.options;
    this.arm();
    await this.runLogged(Math.floor(clock.now() / DAY) * DAY);
  }

  async stop(): Promise<void> {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /**
   * Settles, for every user, the days that ended at or before `dayEnd` (a UTC midnight) and are not
   * settled yet: at most the last ANALYTICS_CATCH_UP_DAYS of them, none before the day the user was
   * created. A user whose store step fails is logged and left for the next run; the others go on.
   */
  async run(dayEnd: number): Promise<void> {
    const { store, logger } = this.options;
    for (const user of await store.listUsers()) {
      try {
        await this.settleUser(user, dayEnd);
      } catch (err) {
        logger.error({ err, user_id: user.id }, "analytics.daily failed for a user; the next run retries");
      }
    }
  }

  private async settleUser(user: UserRecord, dayEnd: number): Promise<void> {
    const { store } = this.options;
    const last = await store.lastAnalyticsDay(user.id);
    let day = Math.max(
      Math.floor(user.created_at / DAY) * DAY,
      dayEnd - ANALYTICS_CATCH_UP_DAYS * DAY,
      last === null ? Number.NEGATIVE_INFINITY : Date.parse(`${last}T00:00:00Z`) + DAY,
    );
    if (day + DAY > dayEnd) return;
    // Read once for all the days due: the summary is the one as it stands now (see above).
    const summary = (await this.isSubscribed(user)) ? await this.options.summarize(user.id) : null;
    for (; day + DAY <= dayEnd; day += DAY) {
      await store.settleAnalyticsDay(
        user.id,
        isoDate(day),
        summary ? this.eventsFor(user, day, summary) : [],
      );
    }
  }

  /** Whether an enabled endpoint of the user listens for analytics.daily: without one, no event. */
  private async isSubscribed(user: UserRecord): Promise<boolean> {
    return (await this.options.store.listWebhooks(user.id)).some(
      (w) => w.status === "enabled" && w.events.includes("analytics.daily"),
    );
  }

  /** The day's event for the user. */
  private eventsFor(user: UserRecord, day: number, summary: Analytics) {
    const now = this.options.clock.now();
    return [
      {
        id: newId("evt", now),
        user_id: user.id,
        type: "analytics.daily" as const,
        created: Math.floor(now / 1000),
        data: { ...summary, date: isoDate(day) },
      },
    ];
  }

  private arm(): void {
    const { clock } = this.options;
    const next = Math.floor(clock.now() / DAY) * DAY + DAY;
    this.timer = clock.setTimeout(() => this.onTimer(next), next - clock.now());
  }

  private onTimer(dayEnd: number): Promise<void> {
    this.timer = null;
    this.arm();
    return this.runLogged(dayEnd);
  }

  private runLogged(dayEnd: number): Promise<void> {
    const previous = this.running ?? Promise.resolve();
    const run = previous
      .then(() => this.run(dayEnd))
      .catch((err) => this.options.logger.error({ err }, "analytics.daily failed"))
      .finally(() => {
        if (this.running === run) this.running = null;
      });
    this.running = run;
    return run;
  }
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
