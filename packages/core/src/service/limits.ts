import { PLANS } from "../contract/plans.ts";
import type { Clock } from "../time/clock.ts";
import { startOfNextMonth } from "../time/month.ts";
import type { Caller } from "./context.ts";
import { HttpError } from "./http-error.ts";

export interface RateLimitOptions {
  /** Requests allowed per key in each window. */
  limit: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { limit: 600, windowMs: 60_000 };

/**
 * Adds one request to a key's count for the window starting at `windowStart` and answers the count
 * including it: the store's counter when several instances share the store (Store.countKeyRequest).
 */
export type SharedWindowCounter = (keyId: string, windowStart: number) => Promise<number>;

/**
 * The short-term limit per key: a fixed window, counted in this process, or in the shared store when
 * one is given, so the limit holds exactly across instances. Headers follow the IETF httpapi RateLimit
 * draft (structured fields): `RateLimit-Policy: "default";q=600;w=60` and
 * `RateLimit: "default";r=<remaining>;t=<seconds until the window resets>`.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly options: RateLimitOptions;
  private readonly clock: Clock;
  private readonly shared: SharedWindowCounter | null;

  constructor(options: RateLimitOptions, clock: Clock, shared?: SharedWindowCounter) {
    this.options = options;
    this.clock = clock;
    this.shared = shared ?? null;
  }

  /**
   * Counts one request for the key; returns the headers to send, or throws 429. In memory it answers at
   * once; a shared counter answers once the store has counted.
   */
  take(keyId: string): Record<string, string> | Promise<Record<string, string>> {
    const now = this.clock.now();
    const { windowMs } = this.options;
    const start = now - (now % windowMs);
    if (this.shared) return this.shared(keyId, start).then((count) => this.answer(count, start, now));
    let window = this.windows.get(keyId);
    if (!window || now >= window.start + windowMs || now < window.start) {
      window = { start, count: 0 };
      this.windows.set(keyId, window);
      this.forgetOldWindows(now);
    }
    // A refused request does not use up the window: the count stays at the limit.
    if (window.count < this.options.limit) window.count++;
    else return this.answer(this.options.limit + 1, window.start, now);
    return this.answer(window.count, window.start, now);
  }

  /** The headers for the `count`-th request of the window (this one included), or 429 past the limit. */
  private answer(count: number, windowStart: number, now: number): Record<string, string> {
    const { limit, windowMs } = this.options;
    const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    const policy = `"default";q=${limit};w=${Math.ceil(windowMs / 1000)}`;
    if (count > limit) {
      throw new HttpError(
        429,
        `Too many requests: this key may make ${limit} requests every ${Math.ceil(windowMs / 1000)} seconds; retry in ${resetSeconds} s.`,
        {
          "retry-after": String(resetSeconds),
          "ratelimit-policy": policy,
          ratelimit: `"default";r=0;t=${resetSeconds}`,
        },
      );
    }
    return { "ratelimit-policy": policy, ratelimit: `"default";r=${limit - count};t=${resetSeconds}` };
  }

  private forgetOldWindows(now: number): void {
    if (this.windows.size < 10_000) return;
    for (const [id, w] of this.windows) if (now >= w.start + this.options.windowMs) this.windows.delete(id);
  }
}

/**
 * Refuses the call with 429 once the plan's allowance for the month is used (every authenticated request
 * of the UTC month counts, this one included, as `authenticate` counted it), until the month turns.
 */
export function checkMonthlyCalls(caller: Caller, now: number): void {
  const plan = caller.user.plan;
  const allowance = PLANS[plan].api_calls_per_month;
  if (caller.callsThisMonth <= allowance) return;
  const turns = startOfNextMonth(now);
  throw new HttpError(
    429,
    `The ${plan} plan allows ${allowance} API calls a month and this month's are used; they renew at ${new Date(turns).toISOString()}, or upgrade the plan.`,
    { "retry-after": String(Math.ceil((turns - now) / 1000)) },
  );
}
