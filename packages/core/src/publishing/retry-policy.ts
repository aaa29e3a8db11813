/**
 * When the next attempt of a target is made after attempt `attempts` failed in a way worth retrying,
 * or null when no attempts are left. The network's own hint wins when it asks for a longer wait.
 */
export function nextAttemptAt(
  now: number,
  attempts: number,
  delaysMs: readonly number[],
  retryAfterMs: number | undefined,
): number | null {
  if (attempts > delaysMs.length) return null;
  const delay = delaysMs[attempts - 1]!;
  return now + Math.max(delay, retryAfterMs ?? 0);
}
