/**
 * How a piece of work's CPU cost grows when its input doubles, for the checks that keep work on user
 * input linear. A linear step measures about 2×, a quadratic one about 4×. CPU time of this process is
 * measured, not wall time, so waiting for a busy machine's cores does not count (the thread's own CPU
 * time would leave out V8's collector threads, but Linux counts it in 4 ms ticks); the least of several
 * alternated runs of each size is kept, and a ratio over the bound is measured again, up to five times
 * in all, the lowest counting, so a garbage collection or a busy moment cannot fail a check. Noise only
 * adds time, and quadratic work measures about 4× however often it is measured.
 */

/** Linear work measures about 2×; quadratic about 4×. The margin absorbs timer and GC noise. */
export const MAX_GROWTH = 2.8;

/** Measurements before a ratio over the bound counts: noise only adds time, so the lowest is kept. */
const MEASUREMENTS = 5;

/** CPU time of this process so far, in milliseconds. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export interface Growth {
  small: number;
  large: number;
  ratio: number;
}

function measureOnce(work: (size: "small" | "large") => unknown, noiseMs: number): Growth {
  work("small"); // warm up the JIT
  let small = Number.POSITIVE_INFINITY;
  let large = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    for (const size of ["small", "large"] as const) {
      const start = cpuMs();
      work(size);
      const spent = cpuMs() - start;
      if (size === "small") small = Math.min(small, spent);
      else large = Math.min(large, spent);
    }
  }
  // Anything faster than the noise floor at the large size is fine however it grows.
  return { small, large, ratio: large < noiseMs ? 1 : large / Math.max(small, 0.1) };
}

/**
 * The growth of `work` from its small input to its large one (twice the small). `work` is given which
 * size to run; inputs should be built beforehand so building them is not measured.
 */
export function growth(work: (size: "small" | "large") => unknown, noiseMs = 2): Growth {
  let measured = measureOnce(work, noiseMs);
  for (let again = 1; again < MEASUREMENTS && measured.ratio > MAX_GROWTH; again++) {
    const next = measureOnce(work, noiseMs);
    if (next.ratio < measured.ratio) measured = next;
  }
  return measured;
}

/** A one-line description of a growth over the bound, for a failure message. */
export function describeGrowth(name: string, { small, large }: Growth): string {
  return `${name}: ${small.toFixed(1)} ms → ${large.toFixed(1)} ms`;
}
