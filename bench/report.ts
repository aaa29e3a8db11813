// The table of the latest results, as docs/performance.md shows it, read from bench/results/*.json.
//
//   node bench/report.ts            # the committed latest results
//   node bench/report.ts --quick    # the last --quick run
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BENCHMARKS } from "./benchmarks.ts";
import { type BenchResult, formatFigure, formatRatio, resultFile } from "./lib/result.ts";

export function readResults(names: readonly string[], quick: boolean): BenchResult[] {
  return names
    .map((name) => resultFile(name, quick))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, "utf8")) as BenchResult);
}

/** The results as a Markdown table: figure, baseline, ratio, goal, met. */
export function markdownTable(results: readonly BenchResult[]): string {
  const lines = [
    "| benchmark | what | figure | baseline (same run) | ratio | goal | met |",
    "|---|---|---:|---:|---:|---|---|",
  ];
  for (const result of results) {
    for (const row of result.rows) {
      const baseline = row.baseline
        ? `${row.baseline.what}: ${formatFigure(row.baseline.figure, row.baseline.unit)}`
        : "—";
      lines.push(
        `| ${result.benchmark} | ${row.what} | ${formatFigure(row.figure, row.unit)} | ${baseline} | ${formatRatio(row)} | ${row.goal} | ${row.met ? "yes" : "**no**"} |`,
      );
    }
  }
  return lines.join("\n");
}

export function printTable(names: readonly string[], quick: boolean): void {
  const results = readResults(names, quick);
  if (results.length === 0) return;
  console.log(`\n${markdownTable(results)}`);
  const machine = results[0]!.machine;
  console.log(
    `\n${machine.cores} cores, ${machine.cpu}, ${machine.ram_gib} GiB, Node ${machine.node}; ` +
      `load average at the start of each: ${results.map((r) => `${r.benchmark} ${r.machine.load_1m}`).join(", ")}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printTable(BENCHMARKS, process.argv.includes("--quick"));
}
