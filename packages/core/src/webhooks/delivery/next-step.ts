import type { DeliveryState } from "../../store/types.ts";
import { parseRetryAfter } from "./retry-after.ts";
import { retryDelayAfter } from "./schedule.ts";
import type { SendResult } from "./send-attempt.ts";

export interface NextStep {
  state: DeliveryState;
  next_attempt_at: number | null;
  /** What went wrong, as the delivery log shows it; null when delivered. */
  error: string | null;
  /** The endpoint answered 410 Gone: disable it. */
  disable: boolean;
}

/**
 * What follows an attempt: 2xx delivered; 410 disables the endpoint; anything else (a 3xx included:
 * redirects are not followed) is retried on the schedule — later when a 429 or 503 asks for it with
 * Retry-After — until the attempts run out.
 */
export function nextStep(
  result: Exclude<SendResult, { kind: "interrupted" }>,
  attempt: number,
  now: number,
  random: () => number,
): NextStep {
  if (result.kind === "response" && result.status >= 200 && result.status < 300) {
    return { state: "delivered", next_attempt_at: null, error: null, disable: false };
  }
  if (result.kind === "response" && result.status === 410) {
    return {
      state: "failed",
      next_attempt_at: null,
      error: "the endpoint answered 410 Gone; it is disabled and gets no more events",
      disable: true,
    };
  }
  const error = result.kind === "response" ? describeStatus(result.status) : result.error;
  let delay = retryDelayAfter(attempt, random);
  if (delay === null) return { state: "failed", next_attempt_at: null, error, disable: false };
  if (result.kind === "response" && (result.status === 429 || result.status === 503)) {
    delay = Math.max(delay, parseRetryAfter(result.retryAfter, now) ?? 0);
  }
  return { state: "pending", next_attempt_at: now + delay, error, disable: false };
}

function describeStatus(status: number): string {
  if (status >= 300 && status < 400) return `the endpoint answered ${status}; redirects are not followed`;
  return `the endpoint answered ${status}`;
}
