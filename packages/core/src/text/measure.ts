import type { LengthUnit } from "../contract/networks.ts";
import { xWeight } from "./x-weight.ts";

let graphemeSegmenter: Intl.Segmenter | undefined;
let wordSegmenter: Intl.Segmenter | undefined;

/** User-perceived characters (extended grapheme clusters), e.g. "👍🏽" or "é" written as e + accent. */
export function graphemes(text: string): string[] {
  return Array.from(eachGrapheme(text));
}

/** The graphemes of `text` one at a time, so a caller can stop early in a long text. */
export function* eachGrapheme(text: string): Generator<string> {
  graphemeSegmenter ??= new Intl.Segmenter("en", { granularity: "grapheme" });
  for (const s of graphemeSegmenter.segment(text)) yield s.segment;
}

/**
 * Where a word or the space after it begins: `boundaries[i]` is 1 when one begins at UTF-16 offset `i`
 * (and at `text.length`). One byte per offset, so a long text costs no more per offset than a short one.
 */
export function wordBoundaries(text: string): Uint8Array {
  wordSegmenter ??= new Intl.Segmenter("en", { granularity: "word" });
  const out = new Uint8Array(text.length + 1);
  for (const s of wordSegmenter.segment(text)) out[s.index] = 1;
  out[text.length] = 1;
  return out;
}

/** Length of `text` as a network counts it: Unicode code points, graphemes, or X's weights. */
export function measure(text: string, unit: LengthUnit): number {
  if (unit === "graphemes") return graphemes(text).length;
  if (unit === "weighted") return xWeight(text, eachGrapheme);
  let n = 0;
  for (const _ of text) n++;
  return n;
}
