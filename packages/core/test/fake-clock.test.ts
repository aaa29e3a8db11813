import { describe, expect, it } from "vitest";
import { FakeClock } from "../src/testing/fake-clock.ts";

describe("FakeClock", () => {
  it("fires timers in due order, each at its due time, when time is advanced past them", async () => {
    const clock = new FakeClock(1000);
    const fired: [string, number][] = [];
    clock.setTimeout(() => fired.push(["b", clock.now()]), 200);
    clock.setTimeout(() => fired.push(["a", clock.now()]), 100);
    clock.setTimeout(() => fired.push(["c", clock.now()]), 300);
    await clock.advance(250);
    expect(fired).toEqual([
      ["a", 1100],
      ["b", 1200],
    ]);
    expect(clock.now()).toBe(1250);
    await clock.advance(50);
    expect(fired.at(-1)).toEqual(["c", 1300]);
  });

  it("waits for the promise a timer returns, and fires timers set meanwhile when they fall due", async () => {
    const clock = new FakeClock(0);
    const log: string[] = [];
    clock.setTimeout(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      log.push("first done");
      clock.setTimeout(() => log.push("second"), 10);
    }, 10);
    await clock.advance(15);
    expect(log).toEqual(["first done"]);
    await clock.advance(5);
    expect(log).toEqual(["first done", "second"]);
  });

  it("advance(0) fires what is due now; clearTimeout cancels", async () => {
    const clock = new FakeClock(0);
    let fired = 0;
    clock.setTimeout(() => fired++, 0);
    const cancelled = clock.setTimeout(() => fired++, 0);
    clock.clearTimeout(cancelled);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(0);
    expect(fired).toBe(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it("set() moves forward like advance and backward without firing", async () => {
    const clock = new FakeClock(0);
    let fired = 0;
    clock.setTimeout(() => fired++, 100);
    await clock.set(-50);
    expect(fired).toBe(0);
    await clock.set(100);
    expect(fired).toBe(1);
    expect(clock.now()).toBe(100);
  });

  it("refuses to go backwards with advance", async () => {
    await expect(new FakeClock(0).advance(-1)).rejects.toThrow(/forward/);
  });
});
