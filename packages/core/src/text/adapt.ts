import { NETWORK_RULES, type NetworkId, textLimitFor } from "../contract/networks.ts";
import { ELLIPSIS, withoutDanglingEnd } from "./clean-cut.ts";
import { eachGrapheme, measure, wordBoundaries } from "./measure.ts";

export { ELLIPSIS };

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
 * there (see clean-cut.ts), unless that would take away more than half of what is kept.
 */
export function truncate(text: string, limit: number, unit: "characters" | "graphemes"): string {
  if (measure(text, unit) <= limit) return text;
  const room = limit - measure(ELLIPSIS, unit);
  if (room <= 0) return ELLIPSIS.slice(0, Math.max(0, limit));

  // The longest run of whole graphemes that fits, as UTF-16 offsets of each grapheme boundary.
  const cuts: number[] = [0];
  let used = 0;
  let offset = 0;
  for (const g of eachGrapheme(text)) {
    const size = unit === "graphemes" ? 1 : measure(g, unit);
    if (used + size > room) break;
    used += size;
    offset += g.length;
    cuts.push(offset);
  }
  const graphemeCut = offset;

  // Word boundaries depend only on nearby characters: a little text past the cut is enough context.
  const words = wordBoundaries(text.slice(0, graphemeCut + WORD_CONTEXT));
  let cut = graphemeCut;
  if (!words.has(graphemeCut)) {
    const minimum = measure(text.slice(0, graphemeCut), unit) * MIN_WORD_CUT_SHARE;
    for (let i = cuts.length - 1; i >= 0; i--) {
      const candidate = cuts[i]!;
      if (!words.has(candidate)) continue;
      if (measure(text.slice(0, candidate).trimEnd(), unit) >= minimum) cut = candidate;
      break;
    }
  }
  const kept = `${text.slice(0, cut).trimEnd()}${ELLIPSIS}`;
  // Cleaning the end follows the word rule above: worth it only while it keeps half of the room.
  const cleaned = withoutDanglingEnd(kept, text);
  return measure(cleaned, unit) >= measure(kept, unit) * MIN_WORD_CUT_SHARE ? cleaned : kept;
}
