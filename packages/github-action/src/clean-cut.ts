/*
 * Where the Action shortens release notes itself, the cut should read as a pause, not a stumble: no
 * list marker, separator or opening bracket just before the "…", and no heading standing above a "…"
 * with everything it introduced cut away.
 */

const ELLIPSIS = "…";

/** A word made only of list-marker, separator or opening-bracket characters, at the end of the text. */
const DANGLING_WORD = /(^|\s)[•·*|/\\:;,&+=#([{–—-]+$/;
/** An ordered list item's number alone at the end of a line. */
const DANGLING_NUMBER = /(^|\n)[ \t]*\d+[.)]$/;

/** A URL at the end of the text. */
const LAST_URL = /[a-z][a-z0-9+.-]*:\/\/\S*$/i;

/**
 * `whole` cut with "…" (as `truncate` gives it) without what dangles at the cut: "• …" becomes "…" on
 * the line before, "Feature |…" becomes "Feature…", and a URL cut in the middle (a link to nowhere) goes
 * with the bracket before it. "" when nothing else is left; an uncut text as it is.
 */
export function withoutDanglingEnd(cut: string, whole: string): string {
  if (!cut.endsWith(ELLIPSIS)) return cut;
  let text = cut.slice(0, -ELLIPSIS.length);
  const cutInsideWord = /\S$/.test(text) && /^\S/.test(whole.slice(text.length));
  if (cutInsideWord) text = text.replace(LAST_URL, "");
  let previous: string;
  do {
    previous = text;
    text = text.trimEnd().replace(DANGLING_WORD, "$1").replace(DANGLING_NUMBER, "$1").trimEnd();
  } while (text !== previous);
  return text === "" ? "" : `${text}${ELLIPSIS}`;
}

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
