/**
 * The longest wait a Retry-After can impose. An endpoint that asks for more still gets the event a day
 * later rather than holding it for as long as it likes.
 */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * A Retry-After header as a wait in milliseconds from `now`: whole seconds, or an HTTP date. Null when
 * it is absent or neither; a date in the past is 0; a wait beyond MAX_RETRY_AFTER_MS is cut to it.
 */
export function parseRetryAfter(value: string | null, now: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    // Date.parse also takes forms HTTP never sends; an HTTP date always names its zone (GMT).
    if (Number.isNaN(at) || !/GMT$/i.test(text)) return null;
    ms = at - now;
  }
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}
