import { describe, expect, test } from "vitest";
import {
  type ClockEnvironment,
  nextDelay,
  POLL_BASE_MS,
  POLL_MAX_MS,
  PollClock,
} from "../src/lib/poll-clock.ts";

/**
 * A tab with a hand-driven clock: timers fire only when the test moves time on. It starts at -5 s,
 * when the views read themselves, so the clock's first refresh falls at 0.
 */
function fakeTab() {
  let now = -POLL_BASE_MS;
  let visible = true;
  let timers: { at: number; run: () => void }[] = [];
  const env: ClockEnvironment = {
    now: () => now,
    setTimer(run, ms) {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return timer;
    },
    clearTimer(timer) {
      timers = timers.filter((t) => t !== timer);
    },
    visible: () => visible,
  };
  return {
    env,
    setVisible(value: boolean) {
      visible = value;
    },
    /** Moves time on by `ms`, firing due timers and letting their refreshes settle. */
    async advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.run();
        await new Promise((resolve) => setImmediate(resolve));
      }
      now = end;
    },
  };
}

/** A clock whose one subscriber records when it was asked and answers `changes()`. */
function setUp(changes: () => boolean = () => false) {
  const tab = fakeTab();
  const clock = new PollClock(tab.env);
  const calls: number[] = [];
  clock.subscribe(async () => {
    calls.push(tab.env.now());
    return changes();
  });
  /** Live updates on; time moves to 0, where the first refresh happens. */
  const start = async () => {
    clock.setRunning(true);
    await tab.advance(POLL_BASE_MS);
  };
  return { tab, clock, calls, start };
}

describe("the poll clock", () => {
  test("the wait doubles while nothing changes, up to a minute, and drops back after a change", () => {
    const waits = [POLL_BASE_MS];
    for (let i = 0; i < 6; i++) waits.push(nextDelay(waits.at(-1)!, false));
    expect(waits).toEqual([5000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000]);
    expect(nextDelay(POLL_MAX_MS, true)).toBe(POLL_BASE_MS);
  });

  test("the first refresh comes 5 s after the views read themselves, not at once", async () => {
    const { tab, clock, calls } = setUp();
    clock.setRunning(true);
    await tab.advance(POLL_BASE_MS - 1);
    expect(calls).toEqual([]);
    await tab.advance(1);
    expect(calls).toEqual([0]);
  });

  test("an idle page is asked less and less often: 13 refreshes in ten minutes instead of 121", async () => {
    const { tab, calls, start } = setUp();
    await start();
    await tab.advance(600_000);
    expect(calls.slice(0, 6)).toEqual([0, 5000, 15_000, 35_000, 75_000, 135_000]);
    expect(calls.length).toBe(13);
  });

  test("a refresh that finds a change keeps the interval at 5 s", async () => {
    const { tab, calls, start } = setUp(() => true);
    await start();
    await tab.advance(30_000);
    expect(calls).toEqual([0, 5000, 10_000, 15_000, 20_000, 25_000, 30_000]);
  });

  test("any action of the person brings the next refresh within 5 s", async () => {
    const { tab, clock, calls, start } = setUp();
    await start();
    await tab.advance(100_000); // 0, 5, 15, 35, 75 s; next due at 135 s
    expect(calls.at(-1)).toBe(75_000);
    clock.activity();
    await tab.advance(5000);
    expect(calls.at(-1)).toBe(105_000);
    expect(clock.interval).toBe(5000);
    await tab.advance(20_000);
    expect(calls.slice(-3)).toEqual([105_000, 110_000, 120_000]);
  });

  test("repeated actions do not postpone a refresh that is already due soon", async () => {
    const { tab, clock, calls, start } = setUp();
    await start();
    await tab.advance(0);
    for (let i = 0; i < 10; i++) {
      clock.activity();
      await tab.advance(1000);
    }
    expect(calls).toEqual([0, 5000, 10_000]);
  });

  test("nothing is asked while the tab is hidden; showing it asks again at once", async () => {
    const { tab, clock, calls, start } = setUp();
    await start();
    await tab.advance(1000);
    tab.setVisible(false);
    clock.visibilityChanged();
    await tab.advance(3_600_000);
    expect(calls).toEqual([0]);
    tab.setVisible(true);
    clock.visibilityChanged();
    await tab.advance(0);
    expect(calls).toEqual([0, 3_601_000]);
    await tab.advance(15_000);
    expect(calls).toEqual([0, 3_601_000, 3_606_000, 3_616_000]);
  });

  test("showing the tab right after a refresh waits out the shortest interval", async () => {
    const { tab, clock, calls, start } = setUp();
    await start();
    await tab.advance(1000);
    tab.setVisible(false);
    clock.visibilityChanged();
    tab.setVisible(true);
    clock.visibilityChanged();
    await tab.advance(3999);
    expect(calls).toEqual([0]);
    await tab.advance(1);
    expect(calls).toEqual([0, 5000]);
  });

  test("live updates off: nothing is asked until they are on again", async () => {
    const { tab, clock, calls, start } = setUp();
    await start();
    await tab.advance(0);
    clock.setRunning(false);
    await tab.advance(600_000);
    clock.activity();
    await tab.advance(600_000);
    expect(calls).toEqual([0]);
    clock.setRunning(true);
    await tab.advance(0);
    expect(calls).toEqual([0, 1_200_000]);
  });

  test("a part that unsubscribes is no longer asked; a failing part does not stop the others", async () => {
    const tab = fakeTab();
    const clock = new PollClock(tab.env);
    let asked = 0;
    let failing = 0;
    const unsubscribe = clock.subscribe(async () => {
      asked++;
      return false;
    });
    clock.subscribe(async () => {
      failing++;
      throw new Error("offline");
    });
    clock.setRunning(true);
    await tab.advance(2 * POLL_BASE_MS);
    unsubscribe();
    await tab.advance(60_000);
    expect(asked).toBe(2);
    expect(failing).toBeGreaterThan(2);
  });
});
