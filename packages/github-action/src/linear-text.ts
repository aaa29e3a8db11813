/*
 * String trimming that stays linear on hostile input. A regular expression such as /\s+$/ or
 * /[ \t]*\n/ is tried at every position of a long run of blanks that does not end where the pattern
 * needs it to, rescanning the run each time: 40,000 spaces in release notes cost seconds. These scan
 * each character once.
 */

/** `text` without the trailing characters for which `drop` holds. */
export function trimEndWhile(text: string, drop: (char: string) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** `text` without the leading characters for which `drop` holds. */
export function trimStartWhile(text: string, drop: (char: string) => boolean): string {
  let start = 0;
  while (start < text.length && drop(text[start]!)) start++;
  return text.slice(start);
}

export const isSpaceOrTab = (char: string): boolean => char === " " || char === "\t";

/** A URL or path without its trailing slashes: `https://host/api/v1///` → `https://host/api/v1`. */
export function withoutTrailingSlashes(text: string): string {
  return trimEndWhile(text, (char) => char === "/");
}

/**
 * Each line break, with the spaces and tabs around it, as one space: a soft break inside a Markdown
 * paragraph read the way CommonMark reads it.
 */
export function lineBreaksAsSpaces(text: string): string {
  if (!text.includes("\n")) return text;
  const lines = text.split("\n");
  const last = lines.length - 1;
  return lines
    .map((line, i) => {
      const start = i > 0 ? trimStartWhile(line, isSpaceOrTab) : line;
      return i < last ? trimEndWhile(start, isSpaceOrTab) : start;
    })
    .join(" ");
}

/** Every run of whitespace that holds a line break as one space; other runs stay as they are. */
export function oneLine(text: string): string {
  // /\s+/ with nothing after it matches each run once, greedily: linear.
  return text.replace(/\s+/g, (run) => (run.includes("\n") ? " " : run));
}
