/**
 * `text` without the slashes it ends with. A loop from the end, not `/\/+$/`: that expression retries
 * from every slash of a long run and is quadratic in the run, and base URLs come from configuration
 * and credentials a user types.
 */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
  return text.slice(0, end);
}
