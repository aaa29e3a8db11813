/*
 * Markdown reads a line of nothing but spaces and tabs as a blank line, and any run of blank lines as
 * one. The parser (micromark, under remark) still makes events for every blank line and its blanks and
 * splices them through its buffers, which grows faster than the notes do: tens of thousands of such
 * lines ("a \n \n \n … b") cost seconds. Giving the parser one empty line per run instead is the same
 * document for everything the social text keeps (only the inside of code blocks, which it leaves out,
 * could tell the difference), and this scan reads each character once.
 */
import { isSpaceOrTab } from "../linear-text.ts";

function isBlankLine(line: string): boolean {
  for (const char of line) if (!isSpaceOrTab(char)) return false;
  return true;
}

/** `markdown` with each run of blank lines (spaces and tabs only) as one empty line. */
export function collapseBlankLines(markdown: string): string {
  const kept: string[] = [];
  let previousBlank = false;
  for (const line of markdown.split("\n")) {
    const blank = isBlankLine(line);
    if (!(blank && previousBlank)) kept.push(blank ? "" : line);
    previousBlank = blank;
  }
  return kept.join("\n");
}
