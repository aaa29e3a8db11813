/*
 * A cut text should read as a pause, not a stumble: no list marker, separator or opening bracket just
 * before the "…", and no half of a URL (a link to nowhere).
 */

/** What ends a shortened text. */
export const ELLIPSIS = "…";

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
