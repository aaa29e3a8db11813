import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  decideRetry,
  isRetryableStatus,
  parseRetryAfter,
  type RetryPolicy,
} from "../../src/client/retry-policy.ts";

const policy: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };
const NOW = Date.parse("2026-06-01T12:00:00Z");

describe("backoffDelay", () => {
  it("doubles the ceiling per retry and waits between half of it and all of it", () => {
    expect([1, 2, 3].map((n) => backoffDelay(n, policy, () => 0))).toEqual([250, 500, 1000]);
    expect([1, 2, 3].map((n) => backoffDelay(n, policy, () => 1))).toEqual([500, 1000, 2000]);
  });

  it("never exceeds the largest delay however many retries", () => {
    expect(backoffDelay(30, policy, () => 1)).toBe(8_000);
    expect(backoffDelay(30, policy, () => 0)).toBe(4_000);
  });

  it("stays within [ceiling/2, ceiling] for any random draw", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (n, r) => {
          const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1));
          const delay = backoffDelay(n, policy, () => r);
          return delay >= ceiling / 2 && delay <= ceiling;
        },
      ),
    );
  });
});

describe("parseRetryAfter", () => {
  it("reads delay-seconds", () => {
    expect(parseRetryAfter("0", NOW)).toBe(0);
    expect(parseRetryAfter("3", NOW)).toBe(3000);
    expect(parseRetryAfter(" 120 ", NOW)).toBe(120_000);
  });

  it("reads an HTTP-date as the time left until it", () => {
    expect(parseRetryAfter("Mon, 01 Jun 2026 12:00:30 GMT", NOW)).toBe(30_000);
    expect(parseRetryAfter("Monday, 01-Jun-26 12:01:00 GMT", NOW)).toBe(60_000);
  });

  it("treats a date in the past as no wait", () => {
    expect(parseRetryAfter("Mon, 01 Jun 2026 11:00:00 GMT", NOW)).toBe(0);
  });

  it("ignores absent or unreadable values", () => {
    for (const value of [null, undefined, "", "soon", "-1", "1.5", "3s", "2026-06-01T12:00:30Z"]) {
      expect(parseRetryAfter(value, NOW)).toBeNull();
    }
  });
});

describe("isRetryableStatus", () => {
  it("retries 429 and 5xx only", () => {
    expect([429, 500, 502, 503, 504, 599].every(isRetryableStatus)).toBe(true);
    expect([200, 201, 400, 401, 403, 404, 405, 409, 413, 422, 600].some(isRetryableStatus)).toBe(false);
  });
});

describe("decideRetry", () => {
  const response = (status: number, retryAfter: string | null = null) =>
    ({ kind: "response", status, retryAfter }) as const;

  it("does not retry a status that would answer the same again", () => {
    for (const status of [400, 401, 404, 409, 413, 422]) {
      expect(decideRetry(response(status), 0, policy, NOW)).toEqual({ retry: false });
    }
  });

  it("retries 5xx and connection failures with backoff", () => {
    expect(decideRetry(response(503), 0, policy, NOW, () => 0)).toEqual({ retry: true, delayMs: 250 });
    expect(decideRetry({ kind: "connection-error" }, 1, policy, NOW, () => 0)).toEqual({
      retry: true,
      delayMs: 500,
    });
  });

  it("waits exactly as long as Retry-After asks, in seconds or as a date", () => {
    expect(decideRetry(response(429, "2"), 0, policy, NOW)).toEqual({ retry: true, delayMs: 2000 });
    expect(decideRetry(response(503, "Mon, 01 Jun 2026 12:00:05 GMT"), 0, policy, NOW)).toEqual({
      retry: true,
      delayMs: 5000,
    });
  });

  it("falls back to backoff when Retry-After is unreadable", () => {
    expect(decideRetry(response(429, "later"), 0, policy, NOW, () => 1)).toEqual({
      retry: true,
      delayMs: 500,
    });
  });

  it("does not retry when Retry-After asks for longer than the cap", () => {
    expect(decideRetry(response(429, "61"), 0, policy, NOW)).toEqual({ retry: false });
    expect(decideRetry(response(429, "60"), 0, policy, NOW)).toEqual({ retry: true, delayMs: 60_000 });
  });

  it("stops after maxRetries", () => {
    expect(decideRetry(response(503), 3, policy, NOW)).toEqual({ retry: false });
    expect(decideRetry(response(503), 0, { ...policy, maxRetries: 0 }, NOW)).toEqual({ retry: false });
  });

  it("defaults to two retries, 0.5 s first backoff and a one-minute Retry-After cap", () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      maxRetries: 2,
      baseDelayMs: 500,
      maxDelayMs: 8_000,
      maxRetryAfterMs: 60_000,
    });
  });
});
