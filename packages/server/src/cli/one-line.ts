/** The whitespace `\s` matches; one character is tested at a time, so each test is constant time. */
const SPACE = /^\s$/;

/**
 * `text` on one line: trailing whitespace dropped, and every run of whitespace that holds a line break
 * made one space. One pass rather than the regular expression `\s*\n\s*`, which rescans a long run of
 * spaces from each of its characters (quadratic), and an error message can quote a value the user typed.
 */
export function oneLine(text: string): string {
  const trimmed = text.trimEnd();
  const parts: string[] = [];
  let kept = 0; // trimmed[kept, …) is not yet in parts
  let i = 0;
  while (i < trimmed.length) {
    if (!SPACE.test(trimmed[i]!)) {
      i++;
      continue;
    }
    const runStart = i;
    let hasBreak = false;
    for (; i < trimmed.length && SPACE.test(trimmed[i]!); i++) if (trimmed[i] === "\n") hasBreak = true;
    if (hasBreak) {
      parts.push(trimmed.slice(kept, runStart), " ");
      kept = i;
    }
  }
  parts.push(trimmed.slice(kept));
  return parts.join("");
}
