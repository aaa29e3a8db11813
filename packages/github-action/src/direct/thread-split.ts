// `long-notes: thread` for a network direct mode posts to outside the in-job service (X): the text cut
// into a thread's parts by the rule the service's `split: "thread"` follows (decisions.md, "Rich
// posts"): each part fits the network's limit, cut at a paragraph, then a sentence, then a word
// boundary, and numbered " 1/3", " 2/3"… at its end when there is more than one. The networks the
// in-job service posts to are split by the service itself.
import { type LengthUnit, MAX_THREAD_PARTS, measure, truncate } from "@socialpub/core";

/** The most parts a thread has: the post and its further parts (decisions.md "Rich posts"). */
const MAX_PARTS = 1 + MAX_THREAD_PARTS;

/**
 * A boundary is taken only while it keeps at least this share of a part's room; otherwise the next
 * kind is tried (paragraph, sentence, word, then anywhere between characters).
 */
const MIN_PART_SHARE = 0.5;

/** `text` as the parts of a thread, each measuring at most `limit` in `unit`; one part when it fits. */
export function splitForThread(text: string, limit: number, unit: LengthUnit): string[] {
  if (measure(text, unit) <= limit) return [text];
  // The room beside the numbers depends on how many digits the count has: guessed, and guessed again
  // with one more digit when the parts outnumber it.
  for (let digits = 1; digits < 4; digits++) {
    const room = limit - measure(` ${"9".repeat(digits)}/${"9".repeat(digits)}`, unit);
    if (room < 1) break;
    let pieces = pack(text, room, unit);
    // A text that would need more parts ends, shortened, in the last part a thread may have.
    if (pieces.length > MAX_PARTS) {
      const last = truncate(pieces.slice(MAX_PARTS - 1).join(" "), room, unit);
      pieces = [...pieces.slice(0, MAX_PARTS - 1), last];
    }
    if (String(pieces.length).length > digits) continue;
    return pieces.map((piece, i) => `${piece} ${i + 1}/${pieces.length}`);
  }
  return [truncate(text, limit, unit)];
}

/** The text in pieces of at most `room`, each cut at the best boundary within it. */
function pack(text: string, room: number, unit: LengthUnit): string[] {
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest !== "") {
    if (measure(rest, unit) <= room) {
      pieces.push(rest);
      break;
    }
    const cut = bestBoundary(rest, longestFit(rest, room, unit));
    const piece = rest.slice(0, cut).trim();
    if (piece !== "") pieces.push(piece);
    rest = rest.slice(cut).trim();
  }
  return pieces;
}

/** The longest prefix of `text` (its length in UTF-16 units, never inside a pair) that fits `room`. */
function longestFit(text: string, room: number, unit: LengthUnit): number {
  // Every character weighs at least one unit but a URL, so a part is never longer than a few rooms.
  let low = 1;
  let high = Math.min(text.length, room * 4 + 64);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (measure(text.slice(0, atCodePoint(text, mid)), unit) <= room) low = mid;
    else high = mid - 1;
  }
  return Math.max(1, atCodePoint(text, low));
}

/** `at`, moved back off the second half of a surrogate pair. */
function atCodePoint(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return at > 0 && at < text.length && code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

/** Where to end a piece that may take `fit` units of `text`: the last paragraph, sentence or word end. */
function bestBoundary(text: string, fit: number): number {
  const least = Math.ceil(fit * MIN_PART_SHARE);
  const head = text.slice(0, fit + 1);
  const paragraph = head.lastIndexOf("\n\n");
  if (paragraph >= least && paragraph <= fit) return paragraph;
  let sentence = -1;
  for (const match of head.matchAll(/[.!?…](?=\s)/g)) {
    const end = match.index + match[0].length;
    if (end <= fit) sentence = end;
  }
  if (sentence >= least) return sentence;
  for (let at = fit; at >= least; at--) if (/\s/.test(text[at] ?? "")) return at;
  return fit;
}
