import type { LengthUnit } from "../contract/networks.ts";
import { truncate } from "../text/adapt.ts";
import { eachGrapheme, measure } from "../text/measure.ts";
import { xWeigher } from "../text/x-weight.ts";

/**
 * A boundary is taken only while it keeps at least this share of a part's room: otherwise the next kind
 * (paragraph, then sentence, then word, then between graphemes) is tried. It also keeps splitting linear:
 * every part but the last takes at least half of the room, so each stretch of text is looked at a
 * bounded number of times.
 */
const MIN_PART_SHARE = 0.5;

/**
 * `split: "thread"` (decisions.md "Rich posts"): `text` cut into parts that each fit `limit` in `unit`,
 * at paragraph, then sentence, then word boundaries, never inside a grapheme; when there is more than
 * one part each ends with its number (` 1/3`, ` 2/3`, …), counted in its length. A text that fits is
 * one part, as given. With `maxParts`, a text that would need more parts ends, shortened, in the last
 * part allowed. Linear in the text's length: one pass over its graphemes, then one walk over the
 * boundaries found, done again (at most a few times) only when the count of parts gains a digit.
 */
export function splitText(
  text: string,
  limit: number,
  unit: LengthUnit,
  maxParts: number = Number.POSITIVE_INFINITY,
): string[] {
  return splitTextWithin(text, limit, unit, maxParts).parts;
}

/** splitText, and whether the text was shortened to keep to `maxParts`. */
export function splitTextWithin(
  text: string,
  limit: number,
  unit: LengthUnit,
  maxParts: number,
): { parts: string[]; shortened: boolean } {
  const whole = (parts: string[]) => ({ parts, shortened: false });
  if (unit !== "weighted" && text.length <= limit) return whole([text]);
  const { offsets, sizes, count } = graphemeSizes(text, unit);
  if (sizes[count - 1]! <= limit && measure(text, unit) <= limit) return whole([text]);
  // The room left beside the numbers depends on how many digits the count has: guessed, and guessed
  // again with one more digit when the parts outnumber it.
  for (let digits = 1; digits < 8; digits++) {
    const room = limit - measure(` ${"9".repeat(digits)}/${"9".repeat(digits)}`, unit);
    if (room < 1) break;
    let pieces = cutInto(text, offsets, sizes, count, room);
    // A text that would need more parts than a thread may have ends, shortened ("…"), in the last one.
    const shortened = pieces.length > maxParts;
    if (shortened) {
      const last = truncate(pieces.slice(maxParts - 1).join(" "), room, unit);
      pieces = [...pieces.slice(0, maxParts - 1), last];
    }
    if (String(pieces.length).length > digits) continue;
    const numbered = pieces.map((piece, i) => {
      const suffix = ` ${i + 1}/${pieces.length}`;
      const part = `${piece}${suffix}`;
      // Graphemes and characters were counted exactly above. X weighs a URL as a whole, and a cut can
      // make one weigh differently than inside the whole text (only where a "." or ":" is): measured
      // again, and shortened to fit.
      if (unit !== "weighted" || !/[.:]/.test(piece) || measure(part, unit) <= limit) return part;
      return `${truncate(piece, limit - measure(suffix, unit), unit)}${suffix}`;
    });
    return { parts: numbered, shortened };
  }
  return { parts: [truncate(text, limit, unit)], shortened: true };
}

/** Each grapheme boundary's UTF-16 offset and the text's measure up to it (index 0: the start). */
function graphemeSizes(text: string, unit: LengthUnit) {
  const offsets = new Uint32Array(text.length + 1);
  const sizes = new Float64Array(text.length + 1);
  const weigh = unit === "weighted" ? xWeigher(text) : undefined;
  let count = 1;
  let offset = 0;
  let used = 0;
  for (const g of isAscii(text) ? asciiGraphemes(text) : eachGrapheme(text)) {
    used += weigh ? weigh(g, offset) : unit === "graphemes" || g.length === 1 ? 1 : measure(g, unit);
    offset += g.length;
    offsets[count] = offset;
    sizes[count] = used;
    count++;
  }
  return { offsets, sizes, count };
}

function cutInto(
  text: string,
  offsets: Uint32Array,
  sizes: Float64Array,
  count: number,
  room: number,
): string[] {
  const pieces: string[] = [];
  let start = skipSpace(text, offsets, count, 0);
  while (start < count - 1) {
    // The furthest boundary whose stretch from `start` fits in the room (at least one grapheme).
    let end = start + 1;
    while (end + 1 < count && sizes[end + 1]! - sizes[start]! <= room) end++;
    if (end < count - 1) end = bestBoundary(text, offsets, sizes, start, end, room);
    const piece = text.slice(offsets[start], offsets[end]).trim();
    if (piece !== "") pieces.push(piece);
    start = skipSpace(text, offsets, count, end);
  }
  return pieces;
}

/** Among the boundaries from `end` back to half the room, the last paragraph end, else sentence, else word. */
function bestBoundary(
  text: string,
  offsets: Uint32Array,
  sizes: Float64Array,
  start: number,
  end: number,
  room: number,
): number {
  const least = sizes[start]! + room * MIN_PART_SHARE;
  let sentence = -1;
  let word = -1;
  for (let i = end; i > start && sizes[i]! >= least; i--) {
    const at = offsets[i]!;
    const next = text[at];
    if (next === undefined || !/\s/.test(next)) continue;
    if (next === "\n" && /^\n[ \t]*\r?\n|^\r?\n\r?\n/.test(text.slice(at, at + 8))) return i;
    if (next === "\r" && text.startsWith("\r\n\r\n", at)) return i;
    if (sentence === -1 && /[.!?…]["'”’)\]]?$/.test(text.slice(Math.max(0, at - 2), at))) sentence = i;
    if (word === -1) word = i;
  }
  if (sentence !== -1) return sentence;
  if (word !== -1) return word;
  return end;
}

/** The first boundary at or after `i` that is not followed by whitespace. */
function skipSpace(text: string, offsets: Uint32Array, count: number, i: number): number {
  let at = i;
  while (at < count - 1 && /\s/.test(text[offsets[at]!]!)) at++;
  return at;
}

/** True when every character is ASCII (below U+0080). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The graphemes of an ASCII text: each character, but a CR LF pair, which is one. */
function* asciiGraphemes(text: string): Generator<string> {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\r" && text[i + 1] === "\n") {
      yield "\r\n";
      i++;
    } else yield text[i]!;
  }
}
