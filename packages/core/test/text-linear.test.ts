import { describe, expect, it } from "vitest";
import { NETWORK_IDS, NETWORK_RULES } from "../src/contract/networks.ts";
import { adaptText, truncate } from "../src/text/adapt.ts";

/*
 * A caption is user input up to facebook's 63,206 characters, and adapting it runs on the request's
 * thread: its cost must grow in proportion to the text, or one long caption stalls every other user.
 * Each check times the same work at 20,000 and 40,000 characters in one run and fails when doubling the
 * text more than roughly doubles the cost (a quadratic step quadruples it). Shapes are the inputs that
 * make a careless scan backtrack: one long word, a URL without end, a run of list markers or numbers.
 */

const SMALL = 20_000;
const LARGE = 40_000;
/** Linear work measures about 2×; quadratic about 4×. The margin absorbs timer and GC noise. */
const MAX_RATIO = 2.8;
// A few seconds of CPU in all; a busy machine can stretch that a lot in wall time (the timeouts below).

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

/** CPU time of this process so far, in milliseconds: waiting for a busy machine's CPU does not count. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * How much longer `work` takes on 40k characters than on 20k: the least CPU time of several runs of
 * each, alternated so both sizes see the same machine. Under 2 ms at 40k characters is noise,
 * and anything that fast is fine.
 */
function measureGrowth(work: (length: number) => unknown) {
  work(SMALL); // warm up the JIT and the segmenters
  let small = Number.POSITIVE_INFINITY;
  let large = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    for (const size of [SMALL, LARGE]) {
      const start = cpuMs();
      work(size);
      const spent = cpuMs() - start;
      if (size === SMALL) small = Math.min(small, spent);
      else large = Math.min(large, spent);
    }
  }
  return { small, large, ratio: large < 2 ? 1 : large / Math.max(small, 0.1) };
}

/**
 * A step that really grows faster than the text grows so every time; a garbage collection or another
 * process can inflate one measurement. So a ratio over the bound is measured twice more before it counts.
 */
function growth(work: (length: number) => unknown) {
  let measured = measureGrowth(work);
  for (let again = 0; again < 2 && measured.ratio > MAX_RATIO; again++) measured = measureGrowth(work);
  return measured;
}

describe("adapting a caption is linear in its length", () => {
  it("cutting at 20k and 40k characters, in every network's unit, with every hostile shape", () => {
    const slow: string[] = [];
    for (const unit of ["characters", "graphemes"] as const) {
      for (const [shape, make] of Object.entries(SHAPES)) {
        const texts = new Map([SMALL, LARGE].map((n) => [n, make(2 * n)]));
        const { small, large, ratio } = growth((n) => truncate(texts.get(n)!, n, unit));
        if (ratio > MAX_RATIO)
          slow.push(`${unit}, ${shape}: ${small.toFixed(1)} ms → ${large.toFixed(1)} ms`);
      }
    }
    expect(slow).toEqual([]);
  }, 120_000);

  it("every network's adaptation of a 20k and a 40k caption", () => {
    const slow: string[] = [];
    for (const id of NETWORK_IDS) {
      for (const [shape, make] of Object.entries(SHAPES)) {
        const texts = new Map([SMALL, LARGE].map((n) => [n, make(n)]));
        const { small, large, ratio } = growth((n) => adaptText(texts.get(n)!, id, false));
        if (ratio > MAX_RATIO) slow.push(`${id}, ${shape}: ${small.toFixed(1)} ms → ${large.toFixed(1)} ms`);
      }
      // What is published still fits.
      const out = adaptText(SHAPES["one long word"]!(LARGE * 2), id, false);
      expect(out.length, id).toBeLessThanOrEqual(NETWORK_RULES[id].textLimit);
    }
    expect(slow).toEqual([]);
  }, 120_000);
});
