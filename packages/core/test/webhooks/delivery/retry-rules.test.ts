import { describe, expect, it } from "vitest";
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from "../../../src/webhooks/delivery/retry-after.ts";
import { MAX_ATTEMPTS, RETRY_SCHEDULE_MS, retryDelayAfter } from "../../../src/webhooks/delivery/schedule.ts";

const NOW = Date.UTC(2026, 5, 15, 12);

describe("retry rules", () => {
  it("the schedule is decisions.md's: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — eight attempts", () => {
    expect(RETRY_SCHEDULE_MS).toEqual([0, 5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    expect(MAX_ATTEMPTS).toBe(8);
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayAfter(n, () => 0.5))).toEqual(
      RETRY_SCHEDULE_MS.slice(1),
    );
    expect(retryDelayAfter(8, () => 0.5)).toBeNull();
  });

  it("jitter stays within ±10%", () => {
    expect(retryDelayAfter(1, () => 0)).toBe(4_500);
    expect(retryDelayAfter(1, () => 0.999_999_9)).toBe(5_500);
    expect(retryDelayAfter(7, () => 0.25)).toBe(36e6 * 0.95);
  });

  it("Retry-After in seconds or as an HTTP date; nonsense is ignored; the past is 0; a day at most", () => {
    expect(parseRetryAfter("120", NOW)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", NOW)).toBe(0);
    expect(parseRetryAfter(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000);
    expect(parseRetryAfter(new Date(NOW - 90_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter("99999999", NOW)).toBe(MAX_RETRY_AFTER_MS);
    for (const bad of [null, "", "soon", "-5", "1.5", "2026-06-15T13:00:00"]) {
      expect(parseRetryAfter(bad, NOW), String(bad)).toBeNull();
    }
  });
});
