// The table of the latest results, as docs/performance.md shows it, read from bench/results/*.json.
//
//   node bench/report.ts                 # print the committed latest results
//   node bench/report.ts --quick         # print the last --quick run
//   node bench/report.ts --write-docs    # put the latest results into docs/performance.md
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
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
        `| ${result.benchmark} | ${row.what} | ${formatFigure(row.figure, row.unit)} | ${baseline} | ${formatRatio(row)} | ${row.goal} | ${row.met === null ? "—" : row.met ? "yes" : "**no**"} |`,
      );
    }
  }
  return lines.join("\n");
}

/** The machine the results were measured on, and how busy it was when each benchmark started. */
export function machineLine(results: readonly BenchResult[]): string {
  const machine = results[0]!.machine;
  const dates = results.map((r) => r.date).sort();
  return (
    `${machine.cores} cores (\`nproc\`), ${machine.cpu}, ${machine.ram_gib} GiB RAM, Node ${machine.node}, ` +
    `${machine.platform}; measured ${dates[0]!.slice(0, 16).replace("T", " ")} to ${dates.at(-1)!.slice(0, 16).replace("T", " ")} UTC; ` +
    `1-minute load average as each benchmark started: ${results.map((r) => `${r.benchmark} ${r.machine.load_1m}`).join(", ")}.`
  );
}

export function printTable(names: readonly string[], quick: boolean): void {
  const results = readResults(names, quick);
  if (results.length === 0) return;
  console.log(`\n${markdownTable(results)}\n\n${machineLine(results)}`);
}

const DOCS = new URL("../docs/performance.md", import.meta.url);
const START = "<!-- bench results: written by `node bench/report.ts --write-docs` -->";
const END = "<!-- end of bench results -->";

/** Replaces the results section of docs/performance.md with the latest results. */
export function writeDocs(): void {
  const results = readResults(BENCHMARKS, false);
  const doc = readFileSync(DOCS, "utf8");
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/performance.md has no "${START}" … "${END}" section`);
  const section = `${START}\n\n${markdownTable(results)}\n\n${machineLine(results)}\n\n`;
  writeFileSync(DOCS, doc.slice(0, from) + section + doc.slice(to));
  // Tables as the project's formatter lays them out, so `pnpm lint` stays clean.
  const biome = fileURLToPath(new URL("../node_modules/.bin/biome", import.meta.url));
  spawnSync(biome, ["format", "--write", fileURLToPath(DOCS)], { stdio: "ignore" });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--write-docs")) writeDocs();
  else printTable(BENCHMARKS, process.argv.includes("--quick"));
}
