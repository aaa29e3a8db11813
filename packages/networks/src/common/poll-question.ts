/*
 * A poll's question where the post's text is the question (Telegram, Discord) and the text is longer
 * than a question may be: the text's first line, cut at a word before `max` characters with "…". The
 * whole text still goes out, before the poll or beside it.
 */
export function pollQuestion(text: string, max: number): string {
  const line = text.trim().split("\n", 1)[0]!.trim();
  const chars = [...line];
  if (chars.length <= max) return line;
  const cut = chars.slice(0, max - 1).join("");
  const space = cut.search(/\s\S*$/);
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
