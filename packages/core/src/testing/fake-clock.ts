import type { Clock, TimerHandle } from "../time/clock.ts";

interface FakeTimer {
  id: number;
  at: number;
  fn: () => unknown;
}

/** A fixed, readable start: 2026-06-15T12:00:00.000Z. */
export const FAKE_CLOCK_START = Date.UTC(2026, 5, 15, 12, 0, 0);

/**
 * A clock that moves only when told. `advance` fires each timer that falls due, in due order, at its
 * due time, and waits for the promise a timer's callback returns — so after `await clock.advance(ms)`
 * the work those timers started (a scheduler run, say) has finished.
 */
export class FakeClock implements Clock {
  private current: number;
  private timers: FakeTimer[] = [];
  private nextId = 1;

  constructor(start: number = FAKE_CLOCK_START) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => unknown, ms: number): TimerHandle {
    const timer = { id: this.nextId++, at: this.current + Math.max(0, ms), fn };
    this.timers.push(timer);
    return { id: timer.id };
  }

  clearTimeout(handle: TimerHandle): void {
    const id = (handle as { id?: number }).id;
    this.timers = this.timers.filter((t) => t.id !== id);
  }

  /** Moves time forward by `ms`, firing what falls due on the way (timers set meanwhile included). */
  async advance(ms: number): Promise<void> {
    if (ms < 0) throw new Error("FakeClock.advance: time only moves forward; use set() to go back.");
    const target = this.current + ms;
    for (let fired = 0; ; fired++) {
      if (fired > 10_000) throw new Error("FakeClock.advance: more than 10000 timers fired; a timer loop?");
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      await due.fn();
    }
    this.current = target;
  }

  /** Jumps to `ms`: forward like `advance`; backward without firing anything. */
  async set(ms: number): Promise<void> {
    if (ms >= this.current) return this.advance(ms - this.current);
    this.current = ms;
  }

  /** How many timers are waiting. */
  get pendingTimers(): number {
    return this.timers.length;
  }

  /** When the earliest waiting timer is due, or null. */
  get nextTimerAt(): number | null {
    return this.timers.reduce<number | null>((min, t) => (min === null || t.at < min ? t.at : min), null);
  }
}
