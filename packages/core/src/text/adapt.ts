import { type LengthUnit, NETWORK_RULES, type NetworkId, textLimitFor } from "../contract/networks.ts";
import { ELLIPSIS, withoutDanglingEnd } from "./clean-cut.ts";
import { eachGrapheme, measure, wordBoundaries } from "./measure.ts";
import { xWeigher } from "./x-weight.ts";

/** UTF-16 units read past the cut to decide whether the cut falls between two words. */
const WORD_CONTEXT = 64;

/**
 * A word boundary is preferred only while it keeps at least this share of the room: a caption that is
 * one long word (or URL) is cut inside it rather than reduced to almost nothing.
 */
const MIN_WORD_CUT_SHARE = 0.5;

/** The caption as a network publishes it: unchanged when it fits, else truncated to fit. */
export function adaptText(caption: string, platform: NetworkId, hasMedia: boolean): string {
  return truncate(caption, textLimitFor(platform, hasMedia), NETWORK_RULES[platform].lengthUnit);
}

/**
 * Shortens `text` so that it, with a closing `…`, measures at most `limit` in `unit`. Cuts only between
 * graphemes (never inside an emoji or a letter with its accents), prefers the end of a word, and drops
 * the whitespace before the `…` — and a list marker, separator, opening bracket or half a URL left
 * there (see clean-cut.ts), unless that would take away more than half of what is kept. Linear in
 * the text: one pass over its graphemes up to the limit, one over its words up to the cut.
 */
export function truncate(text: string, limit: number, unit: LengthUnit): string {
  if (unit !== "weighted") return cut(text, limit, unit);
  if (measure(text, unit) <= limit) return text;
  // X's URLs are found in the whole text, so a cut that ends a URL early (or leaves half a domain that
  // X reads differently) can weigh a little more than its pieces did: measured again, and cut shorter
  // by the excess. Each round is linear; the excess shrinks each time, so a few rounds at most.
  let room = limit;
  for (let round = 0; round < 4 && room > 0; round++) {
    const out = cut(text, room, unit);
    const excess = measure(out, unit) - limit;
    if (excess <= 0) return out;
    room -= excess;
  }
  // Nothing of the text fits beside the … (a limit below one URL's weight).
  return measure(ELLIPSIS, unit) <= limit ? ELLIPSIS : "";
}

function cut(text: string, limit: number, unit: LengthUnit): string {
  // Characters and graphemes count at most one per UTF-16 unit, so a text no longer than the limit fits.
  if (unit !== "weighted" && text.length <= limit) return text;
  const ellipsis = measure(ELLIPSIS, unit);
  const room = limit - ellipsis;

  // One pass over the graphemes, stopping once the text is known not to fit: the longest run of whole
  // graphemes that fits in `room`, as UTF-16 offsets of each boundary and the measure up to it.
  // Typed arrays sized once: growing plain arrays of tens of thousands of numbers costs more than the pass.
  // A grapheme inside an X URL weighs nothing, so there the boundaries can outnumber the room.
  const capacity = (unit === "weighted" ? text.length : Math.max(0, room)) + 1;
  const offsets = new Uint32Array(capacity);
  const sizes = new Uint32Array(capacity);
  let count = 1;
  let used = 0;
  let offset = 0;
  let filling = room > 0;
  const weigh = unit === "weighted" ? xWeigher(text) : undefined;
  for (const g of eachGrapheme(text)) {
    used += weigh ? weigh(g, offset) : unit === "graphemes" || g.length === 1 ? 1 : measure(g, unit);
    offset += g.length;
    if (used > limit) break;
    if (filling && used <= room) {
      offsets[count] = offset;
      sizes[count] = used;
      count++;
    } else filling = false;
  }
  if (used <= limit) return text;
  if (room <= 0) return ELLIPSIS.slice(0, Math.max(0, limit));

  /** The measure of `text[0, end)`: looked up when `end` is a boundary seen above (it always is, but for odd whitespace). */
  const measureTo = (end: number): number => {
    const found = binarySearch(offsets, count, end);
    return found === -1 ? measure(text.slice(0, end), unit) : sizes[found]!;
  };
  const trimmedTo = (end: number) => text.slice(0, end).trimEnd().length;

  const graphemeCut = offsets[count - 1]!;
  // Word boundaries depend only on nearby characters: a little text past the cut is enough context.
  const words = wordBoundaries(text.slice(0, graphemeCut + WORD_CONTEXT));
  let cut = graphemeCut;
  if (words[graphemeCut] !== 1) {
    const minimum = sizes[count - 1]! * MIN_WORD_CUT_SHARE;
    for (let i = count - 1; i >= 0; i--) {
      const candidate = offsets[i]!;
      if (words[candidate] !== 1) continue;
      if (measureTo(trimmedTo(candidate)) >= minimum) cut = candidate;
      break;
    }
  }
  const keptEnd = trimmedTo(cut);
  const kept = `${text.slice(0, keptEnd)}${ELLIPSIS}`;
  // Cleaning the end follows the word rule above: worth it only while it keeps half of the room.
  const cleaned = withoutDanglingEnd(kept, text);
  const cleanedSize = cleaned === "" ? 0 : measureTo(cleaned.length - ELLIPSIS.length) + ellipsis;
  return cleanedSize >= (measureTo(keptEnd) + ellipsis) * MIN_WORD_CUT_SHARE ? cleaned : kept;
}

/** The index of `value` in the first `length` entries of the ascending `sorted`, or -1. */
function binarySearch(sorted: Uint32Array, length: number, value: number): number {
  let low = 0;
  let high = length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = sorted[middle]!;
    if (at === value) return middle;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
