/** The shortest wait between two refreshes, while something changes or the person is active. */
export const POLL_BASE_MS = 5000;
/** The longest wait, reached after a few refreshes in a row that found nothing new. */
export const POLL_MAX_MS = 60_000;

/** The wait after a refresh: back to the shortest when something changed, else twice as long, up to the longest. */
export function nextDelay(delay: number, changed: boolean, base = POLL_BASE_MS, max = POLL_MAX_MS): number {
  return changed ? base : Math.min(Math.max(delay, base) * 2, max);
}

/** Refreshes one thing on the page; true when what it shows changed. */
export type Refresher = () => Promise<boolean>;

/** What the clock needs from the browser, so it can be driven without one. */
export interface ClockEnvironment {
  now(): number;
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
  /** False while the tab is hidden. */
  visible(): boolean;
}

export const browserEnvironment: ClockEnvironment = {
  now: () => Date.now(),
  setTimer: (run, ms) => setTimeout(run, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  visible: () => document.visibilityState === "visible",
};

/**
 * One schedule for every live part of the page: each tick refreshes them all together. Every refresh
 * is an API call counted against the key's monthly allowance, so the clock asks as little as it can:
 * nothing while the tab is hidden or live updates are off, and less and less often (up to once a
 * minute) while nothing changes and nobody uses the page. A change, or any action of the person,
 * brings it back to every few seconds.
 */
export class PollClock {
  private readonly env: ClockEnvironment;
  private readonly base: number;
  private readonly max: number;
  private readonly refreshers = new Set<Refresher>();
  /** The wait after the next refresh if that one finds nothing new either. */
  private delay: number;
  /** The wait before the refresh now scheduled. */
  private wait: number;
  private running = false;
  private timer: unknown = null;
  private dueAt = 0;
  private inFlight = false;
  private activeDuringTick = false;
  /** When everything was last read; views read themselves when they appear, so the clock starts there. */
  private lastTickAt: number;

  constructor(env: ClockEnvironment = browserEnvironment, base = POLL_BASE_MS, max = POLL_MAX_MS) {
    this.env = env;
    this.base = base;
    this.max = max;
    this.delay = base;
    this.wait = base;
    this.lastTickAt = env.now();
  }

  /** The wait between the last refresh and the next one. */
  get interval(): number {
    return this.wait;
  }

  /** Adds a part to refresh on each tick; returns how to remove it. */
  subscribe(refresh: Refresher): () => void {
    this.refreshers.add(refresh);
    return () => this.refreshers.delete(refresh);
  }

  /** Live updates on (refreshes resume, at the shortest interval) or off (none until turned on). */
  setRunning(on: boolean): void {
    if (on === this.running) return;
    this.running = on;
    if (on) this.resume();
    else this.cancel();
  }

  /**
   * The tab was hidden or shown. Hidden: no refresh at all. Shown: refresh soon, as what is on screen
   * may be old — at once unless the last refresh was less than the shortest interval ago.
   */
  visibilityChanged(): void {
    if (!this.running) return;
    if (this.env.visible()) this.resume();
    else this.cancel();
  }

  /** The person did something: the next refresh comes within the shortest interval. */
  activity(): void {
    this.delay = this.base;
    if (this.inFlight) {
      this.activeDuringTick = true;
      return;
    }
    if (this.timer !== null && this.dueAt - this.env.now() > this.base) {
      this.wait = this.base;
      this.schedule(this.base);
    }
  }

  private resume(): void {
    this.delay = this.base;
    if (this.inFlight) return;
    this.schedule(Math.max(0, this.lastTickAt + this.base - this.env.now()));
  }

  private cancel(): void {
    if (this.timer !== null) this.env.clearTimer(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    this.cancel();
    if (!this.running || !this.env.visible()) return;
    this.dueAt = this.env.now() + ms;
    this.timer = this.env.setTimer(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    this.timer = null;
    if (!this.running || !this.env.visible()) return;
    this.inFlight = true;
    this.activeDuringTick = false;
    this.lastTickAt = this.env.now();
    const results = await Promise.allSettled([...this.refreshers].map((refresh) => refresh()));
    this.inFlight = false;
    const changed = results.some((result) => result.status === "fulfilled" && result.value);
    this.wait = changed || this.activeDuringTick ? this.base : this.delay;
    this.delay = nextDelay(this.wait, false, this.base, this.max);
    this.schedule(this.wait);
  }
}
