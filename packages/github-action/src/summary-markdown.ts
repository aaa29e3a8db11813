// Pieces of the job summary's Markdown, kept safe whatever text (release notes, a network's error) they hold.
import { oneLine } from "./linear-text.ts";

/** A table cell: one line, pipes escaped, HTML shown as text. */
export function cell(text: string): string {
  return oneLine(escapeText(text).replace(/\|/g, "\\|"));
}

export function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A fenced block longer than any run of backticks inside it, so the caption shows verbatim. */
export function fence(text: string): string {
  // A loop, not Math.max(...runs): spreading tens of thousands of runs overflows the call stack.
  let longest = 2;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const marks = "`".repeat(longest + 1);
  return `${marks}text\n${text}\n${marks}`;
}
