/*
 * When and how long to wait before retrying a request. Pure functions: the randomness and the current
 * time come in as arguments, so every rule is testable directly.
 */

export interface RetryPolicy {
  /** Retries after the first attempt (0 turns retrying off). */
  maxRetries: number;
  /** Backoff ceiling of the first retry; it doubles with each further retry. */
  baseDelayMs: number;
  /** Backoff never exceeds this. */
  maxDelayMs: number;
  /**
   * The longest `Retry-After` the client waits for. When the service asks for longer (a monthly
   * allowance that is used up, say), the client does not retry: it throws at once, with `retryAfter`
   * on the error, rather than sleeping for hours or retrying sooner than it was asked to.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** What happened on one attempt, as far as retrying is concerned. */
export type AttemptOutcome =
  | { kind: "response"; status: number; retryAfter: string | null }
  | { kind: "connection-error" };

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

/** 429 and 5xx may succeed later; every other status will answer the same again. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Exponential backoff with "equal jitter": the ceiling doubles per retry (capped), and the wait is
 * half the ceiling plus a random share of the other half, so clients that failed together spread out
 * while each still waits a predictable minimum. `retry` counts from 1.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const DELAY_SECONDS = /^\d+$/;
// HTTP-date forms begin with a day name ("Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 …",
// "Sun Nov  6 08:49:37 1994"); requiring one keeps Date.parse from reading "1.5" as a date.
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /i;

/**
 * `Retry-After` as milliseconds to wait from `now`: either delay-seconds or an HTTP-date (RFC 9110
 * §10.2.3). A date in the past means 0. Null when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (DELAY_SECONDS.test(text)) return Number(text) * 1000;
  if (!HTTP_DATE.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/**
 * Whether to retry after attempt number `retriesSoFar + 1`, and after how long. Retries only what can
 * succeed later (429, 5xx, no connection); honours `Retry-After` exactly when the service sends one
 * within `maxRetryAfterMs`, and does not retry when it asks for longer.
 */
export function decideRetry(
  outcome: AttemptOutcome,
  retriesSoFar: number,
  policy: RetryPolicy,
  now: number,
  random: () => number = Math.random,
): RetryDecision {
  if (retriesSoFar >= policy.maxRetries) return { retry: false };
  if (outcome.kind === "response") {
    if (!isRetryableStatus(outcome.status)) return { retry: false };
    const asked = parseRetryAfter(outcome.retryAfter, now);
    if (asked !== null) {
      return asked > policy.maxRetryAfterMs ? { retry: false } : { retry: true, delayMs: asked };
    }
  }
  return { retry: true, delayMs: backoffDelay(retriesSoFar + 1, policy, random) };
}
