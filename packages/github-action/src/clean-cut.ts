/*
 * Where the Action shortens release notes itself, whole lines should not end on a heading standing
 * above a "…" with everything it introduced cut away. (A cut inside a line is cleaned by core's
 * `truncate`, which leaves no list marker, separator or half a URL before the "…".)
 */

const LIST_ITEM = /^(?:• |\d+\. )/;

/**
 * The first `count` lines of social text, less those at the end that run straight on into the next
 * line. Blocks are separated by a blank line, so such a line is a heading over its content, or part of
 * a table or of a paragraph with hard breaks: kept last, a heading would stand alone above the "…".
 * List items (and their indented lines) stand on their own and are kept one by one.
 */
export function leadingLines(lines: readonly string[], count: number): string[] {
  let end = Math.min(count, lines.length);
  while (end > 0 && runsOn(lines[end - 1]!, lines[end])) end--;
  return lines.slice(0, end);
}

function runsOn(line: string, next: string | undefined): boolean {
  if (next === undefined || next.trim() === "" || line.trim() === "") return false;
  return !/^\s/.test(line) && !LIST_ITEM.test(line);
}
