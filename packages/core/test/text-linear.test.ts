import { describe, expect, it } from "vitest";
import { describeGrowth, growth, MAX_GROWTH } from "../../../test-support/linear-growth.ts";
import { NETWORK_IDS, NETWORK_RULES } from "../src/contract/networks.ts";
import { splitText } from "../src/posting/split.ts";
import { adaptText, truncate } from "../src/text/adapt.ts";

/*
 * A caption is user input up to facebook's 63,206 characters, and adapting it runs on the request's
 * thread: its cost must grow in proportion to the text, or one long caption stalls every other user.
 * Each check times the same work at 20,000 and 40,000 characters in one run and fails when doubling the
 * text more than roughly doubles the cost (a quadratic step quadruples it), measured as every linearity
 * check is (test-support/linear-growth.ts: the lowest of three measurements counts). Shapes are the
 * inputs that make a careless scan backtrack: one long word, a URL without end, a run of list markers
 * or numbers.
 */

const SIZES = { small: 20_000, large: 40_000 } as const;
/**
 * Under this many milliseconds at 40,000 characters any growth is fine: a step quadratic in the text
 * takes seconds there, while the linear cuts take about 2 ms, where a busy machine's noise alone can
 * measure 3×.
 */
const NOISE_MS = 10;

const repeatTo = (unit: string, length: number, prefix = "") =>
  prefix + unit.repeat(Math.ceil((length - prefix.length) / unit.length)).slice(0, length - prefix.length);

const SHAPES: Record<string, (length: number) => string> = {
  "one long word": (n) => "a".repeat(n),
  "scheme characters without ://": (n) => repeatTo("a+b.c-", n),
  "a URL that never ends": (n) => repeatTo("a", n, "see https://"),
  "a URL in every word": (n) => repeatTo("x.y://z ", n),
  "list markers": (n) => repeatTo(" -", n, "a"),
  "numbered items": (n) => repeatTo("\n1.", n, "a"),
  spaces: (n) => repeatTo(" ", n, "a"),
  "emoji with skin tones": (n) => repeatTo("👍🏽", n),
  "short words": (n) => repeatTo("word ", n),
};

describe("adapting a caption is linear in its length", () => {
  it("cutting at 20k and 40k characters, in every network's unit, with every hostile shape", () => {
    const slow: string[] = [];
    for (const unit of ["characters", "graphemes"] as const) {
      for (const [shape, make] of Object.entries(SHAPES)) {
        const texts = { small: make(2 * SIZES.small), large: make(2 * SIZES.large) };
        const measured = growth((size) => truncate(texts[size], SIZES[size], unit), NOISE_MS);
        if (measured.ratio > MAX_GROWTH) slow.push(describeGrowth(`${unit}, ${shape}`, measured));
      }
    }
    expect(slow).toEqual([]);
  }, 120_000);

  it("every network's adaptation of a 20k and a 40k caption", () => {
    const slow: string[] = [];
    for (const id of NETWORK_IDS) {
      for (const [shape, make] of Object.entries(SHAPES)) {
        const texts = { small: make(SIZES.small), large: make(SIZES.large) };
        const measured = growth((size) => adaptText(texts[size], id, false), NOISE_MS);
        if (measured.ratio > MAX_GROWTH) slow.push(describeGrowth(`${id}, ${shape}`, measured));
      }
      // What is published still fits.
      const out = adaptText(SHAPES["one long word"]!(SIZES.large * 2), id, false);
      expect(out.length, id).toBeLessThanOrEqual(NETWORK_RULES[id].textLimit);
    }
    expect(slow).toEqual([]);
  }, 120_000);

  it('split: "thread" of a 20k and a 40k text, in every threading unit, with every hostile shape and sentences', () => {
    const slow: string[] = [];
    const shapes: Record<string, (length: number) => string> = {
      ...SHAPES,
      sentences: (n) => repeatTo("Faster uploads. Clearer errors! Why? ", n),
      paragraphs: (n) => repeatTo("A short paragraph here.\n\n", n),
    };
    // X (weighted, 280), Bluesky (graphemes, 300) and Threads (characters, 500) thread.
    const limits = [
      ["weighted", 280],
      ["graphemes", 300],
      ["characters", 500],
    ] as const;
    for (const [unit, limit] of limits) {
      for (const [shape, make] of Object.entries(shapes)) {
        const texts = { small: make(SIZES.small), large: make(SIZES.large) };
        const measured = growth((size) => splitText(texts[size], limit, unit), NOISE_MS);
        if (measured.ratio > MAX_GROWTH) slow.push(describeGrowth(`${unit}, ${shape}`, measured));
      }
    }
    expect(slow).toEqual([]);
  }, 240_000);
});
