/*
 * A cut text should read as a pause, not a stumble: no list marker, separator or opening bracket just
 * before the "…", and no half of a URL (a link to nowhere).
 *
 * Everything here walks back from the end of the text, each character at most a few times: a caption
 * is user input up to 63,206 characters (facebook), and a regular expression anchored at the end
 * (`…$`) is tried from every position before it, which is quadratic on one long word.
 */

/** What ends a shortened text. */
export const ELLIPSIS = "…";

/** List-marker, separator and opening-bracket characters: a word made only of these dangles. */
const MARKERS = new Set("•·*|/\\:;,&+=#([{–—-");
/** Characters of a URL scheme after its first letter (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )). */
const SCHEME_CHAR = /^[a-z0-9+.-]$/i;
const LETTER = /^[a-z]$/i;
const WHITESPACE = /^\s$/;

/** Whitespace as `\s` and `trimEnd` know it; ASCII decided without a regular expression (the usual case). */
function isSpace(char: string | undefined): boolean {
  if (char === undefined) return false;
  const code = char.charCodeAt(0);
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return WHITESPACE.test(char);
}
const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";

/** Where the whitespace at the end of `text[0, end)` begins. */
function trimmedEnd(text: string, end: number): number {
  while (end > 0 && isSpace(text[end - 1])) end--;
  return end;
}

/**
 * Where a URL (`scheme://` and anything but whitespace) that runs to the end of `text` starts, the
 * leftmost such start in the last word; -1 when the last word holds none.
 */
export function lastUrlStart(text: string): number {
  let wordStart = text.length;
  while (wordStart > 0 && !isSpace(text[wordStart - 1])) wordStart--;
  let from = wordStart;
  for (;;) {
    const separator = text.indexOf("://", from);
    if (separator === -1) return -1;
    // The scheme is the run of scheme characters before "://", from its leftmost letter.
    let runStart = separator;
    while (runStart > wordStart && SCHEME_CHAR.test(text[runStart - 1]!)) runStart--;
    for (let i = runStart; i < separator; i++) if (LETTER.test(text[i]!)) return i;
    from = separator + 1;
  }
}

/** `text[0, end)` without a word made only of markers at its end ("•", "|", "(", "—"). */
function withoutDanglingWord(text: string, end: number): number {
  let start = end;
  while (start > 0 && MARKERS.has(text[start - 1]!)) start--;
  // Only a whole word of markers: "C++" or "Fixes:" keep their ending.
  return start < end && (start === 0 || isSpace(text[start - 1])) ? start : end;
}

/** `text[0, end)` without an ordered list item's number ("2." or "2)") alone on its last line. */
function withoutDanglingNumber(text: string, end: number): number {
  const last = text[end - 1];
  if (last !== "." && last !== ")") return end;
  let start = end - 1;
  while (isDigit(text[start - 1])) start--;
  if (start === end - 1) return end;
  while (start > 0 && (text[start - 1] === " " || text[start - 1] === "\t")) start--;
  return start === 0 || text[start - 1] === "\n" ? start : end;
}

/**
 * `whole` cut with "…" (as `truncate` gives it) without what dangles at the cut: "• …" becomes "…" on
 * the line before, "Feature |…" becomes "Feature…", and a URL cut in the middle (a link to nowhere) goes
 * with the bracket before it. "" when nothing else is left; an uncut text as it is.
 */
export function withoutDanglingEnd(cut: string, whole: string): string {
  if (!cut.endsWith(ELLIPSIS)) return cut;
  const text = cut.slice(0, -ELLIPSIS.length);
  let end = text.length;
  const cutInsideWord = end > 0 && !isSpace(text[end - 1]) && end < whole.length && !isSpace(whole[end]);
  if (cutInsideWord) {
    const url = lastUrlStart(text);
    if (url !== -1) end = url;
  }
  for (;;) {
    end = trimmedEnd(text, end);
    const next = withoutDanglingNumber(text, withoutDanglingWord(text, end));
    if (next === end) break;
    end = next;
  }
  return end === 0 ? "" : `${text.slice(0, end)}${ELLIPSIS}`;
}
