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
 * The short-term limit per key: a fixed window counted in this process. Headers follow the IETF
 * httpapi RateLimit draft (structured fields): `RateLimit-Policy: "default";q=600;w=60` and
 * `RateLimit: "default";r=<remaining>;t=<seconds until the window resets>`.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly options: RateLimitOptions;
  private readonly clock: Clock;

  constructor(options: RateLimitOptions, clock: Clock) {
    this.options = options;
    this.clock = clock;
  }

  /** Counts one request for the key; returns the headers to send, or throws 429. */
  take(keyId: string): Record<string, string> {
    const now = this.clock.now();
    const { limit, windowMs } = this.options;
    let window = this.windows.get(keyId);
    if (!window || now >= window.start + windowMs || now < window.start) {
      window = { start: now - (now % windowMs), count: 0 };
      this.windows.set(keyId, window);
      this.forgetOldWindows(now);
    }
    const resetSeconds = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    const policy = `"default";q=${limit};w=${Math.ceil(windowMs / 1000)}`;
    if (window.count >= limit) {
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
    window.count++;
    return { "ratelimit-policy": policy, ratelimit: `"default";r=${limit - window.count};t=${resetSeconds}` };
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
