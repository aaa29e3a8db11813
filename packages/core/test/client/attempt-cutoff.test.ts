import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { AttemptDeadlines } from "../../src/client/attempt-cutoff.ts";

/** Timers that keep the process alive (an unref'd timer is not listed). */
const liveTimers = () => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;

describe("AttemptDeadlines", () => {
  it("cuts off each attempt at its own deadline, one started later with a shorter allowance first", async () => {
    const deadlines = new AttemptDeadlines();
    const long = deadlines.start(60_000, undefined);
    const started = Date.now();
    const short = deadlines.start(50, undefined);
    await once(short.signal, "abort");
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(short.timedOut).toBe(true);
    expect(long.timedOut).toBe(false);
    long.end();
  });

  it("cuts off attempts that follow one another, each after its allowance, with one timer between them", async () => {
    const deadlines = new AttemptDeadlines();
    const first = deadlines.start(40, undefined);
    await once(first.signal, "abort");
    const second = deadlines.start(40, undefined);
    const started = Date.now();
    await once(second.signal, "abort");
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    expect(second.timedOut).toBe(true);
  });

  it("leaves an attempt that ended in time alone, and nothing keeping the process alive once none is in flight", async () => {
    const deadlines = new AttemptDeadlines();
    const before = liveTimers();
    const attempt = deadlines.start(30, undefined);
    let cut = false;
    attempt.signal.on("abort", () => {
      cut = true;
    });
    expect(liveTimers()).toBe(before + 1);
    attempt.end();
    expect(liveTimers()).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(cut).toBe(false);
    expect(attempt.timedOut).toBe(false);
  });

  it("keeps the process alive while an attempt is in flight after an earlier one ended", () => {
    const deadlines = new AttemptDeadlines();
    const before = liveTimers();
    deadlines.start(60_000, undefined).end();
    const second = deadlines.start(60_000, undefined);
    expect(liveTimers()).toBe(before + 1);
    second.end();
    expect(liveTimers()).toBe(before);
  });

  it("cuts off on the caller's signal without calling it a timeout, and stops listening to it after", async () => {
    const deadlines = new AttemptDeadlines();
    const controller = new AbortController();
    const attempt = deadlines.start(60_000, controller.signal);
    const cut = once(attempt.signal, "abort");
    controller.abort(new Error("user cancelled"));
    await cut;
    expect(attempt.timedOut).toBe(false);

    const other = new AbortController();
    let fired = 0;
    const ended = deadlines.start(60_000, other.signal);
    ended.signal.on("abort", () => fired++);
    ended.end();
    other.abort();
    expect(fired).toBe(0);
  });
});
