/**
 * What every benchmark accepts on its command line. `--quick` shrinks durations and data sizes so the
 * whole suite can be checked to run in seconds; its figures are not meant to be read, and its results
 * go to bench/results/quick/ (git-ignored) instead of replacing the committed latest ones.
 */
export interface BenchOptions {
  quick: boolean;
}

export function benchOptions(argv: readonly string[] = process.argv.slice(2)): BenchOptions {
  for (const arg of argv) {
    if (arg !== "--quick") throw new Error(`unknown option ${arg}; the only option is --quick.`);
  }
  return { quick: argv.includes("--quick") };
}

/** A duration in seconds: the full one, or a short one with --quick. */
export function seconds(options: BenchOptions, full: number, quick = 1): number {
  return options.quick ? quick : full;
}

/** A count: the full one, or a small one with --quick. */
export function count(options: BenchOptions, full: number, quick: number): number {
  return options.quick ? quick : full;
}
