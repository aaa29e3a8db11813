/*
 * A post's text as a YouTube video's title and description. YouTube documents the title as at most 100
 * characters and the description as at most 5000 bytes, and refuses both when they hold `<` or `>`
 * (invalidTitle, invalidDescription); those are written as the look-alike ‹ and ›.
 */

export const TITLE_LIMIT = 100;
export const DESCRIPTION_LIMIT_BYTES = 5000;

export const noAngles = (s: string) => s.replace(/</g, "‹").replace(/>/g, "›");

export interface VideoText {
  title: string;
  description: string;
}

/**
 * The title is the text's first line that is not blank, cut to 100 characters on a whole word (with
 * an ellipsis) when longer; the description is the rest. A title that had to be cut is given whole at
 * the start of the description, so nothing of the text is lost. `fallback` (the file's name) titles a
 * video whose post has no text.
 */
export function videoText(text: string, fallback: string): VideoText {
  const lines = text.split(/\r?\n/);
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first === -1) return { title: cutTitle(noAngles(fallback.trim() || "Video")), description: "" };
  const line = noAngles(lines[first]!.trim());
  const rest = noAngles(
    lines
      .slice(first + 1)
      .join("\n")
      .trim(),
  );
  const title = cutTitle(line);
  const description = title === line ? rest : [line, rest].filter(Boolean).join("\n\n");
  return { title, description: cutBytes(description, DESCRIPTION_LIMIT_BYTES) };
}

/** A whole text as a description (its title given apart): angles replaced, cut to YouTube's bytes. */
export function videoDescription(text: string): string {
  return cutBytes(noAngles(text.trim()), DESCRIPTION_LIMIT_BYTES);
}

function cutTitle(line: string): string {
  const chars = [...line];
  if (chars.length <= TITLE_LIMIT) return line;
  const room = chars.slice(0, TITLE_LIMIT - 1).join("");
  // Back to the last space, unless that would leave too little of the line.
  const space = room.lastIndexOf(" ");
  const cut = space >= TITLE_LIMIT / 2 ? room.slice(0, space) : room;
  return `${cut.trimEnd()}…`;
}

/** `text` cut to at most `limit` UTF-8 bytes, on a whole word where one ends near the limit. */
function cutBytes(text: string, limit: number): string {
  if (Buffer.byteLength(text) <= limit) return text;
  let out = "";
  let bytes = 0;
  const room = limit - Buffer.byteLength("…");
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > room) break;
    out += char;
    bytes += size;
  }
  const space = out.search(/\s\S*$/);
  return `${(space > out.length - 200 && space > 0 ? out.slice(0, space) : out).trimEnd()}…`;
}
