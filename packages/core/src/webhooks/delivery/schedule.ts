/**
 * When a delivery is attempted (decisions.md): at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and
 * 10 h after the attempt before, each with ±10% jitter. Entry i is the wait before attempt i + 1, so a
 * delivery gets eight attempts over about 27.6 hours; after the eighth fails it is given up (failed).
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;

/** ±10%: endpoints that failed together do not all get their retries in the same instant. */
export const RETRY_JITTER = 0.1;

/**
 * How long to wait after failed attempt number `attemptsMade` before the next one, or null when that
 * was the last. `random` returns [0, 1) like Math.random; 0.5 means no jitter.
 */
export function retryDelayAfter(attemptsMade: number, random: () => number): number | null {
  const base = RETRY_SCHEDULE_MS[attemptsMade];
  if (base === undefined) return null;
  return Math.round(base * (1 + RETRY_JITTER * (2 * random() - 1)));
}
