// Runs the benchmarks, each in its own process so one cannot warm up or slow down another, then prints
// the table of the latest results (docs/performance.md shows the same table).
//
//   pnpm bench                      # every benchmark
//   pnpm bench get-post list-posts  # only these
//   pnpm bench --quick              # every benchmark, short and small: checks they run, figures not meant to be read
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BENCHMARKS, isBenchmark } from "./benchmarks.ts";
import { printTable } from "./report.ts";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const names = args.filter((arg) => arg !== "--quick");
for (const name of names) {
  if (!isBenchmark(name)) {
    console.error(`unknown benchmark "${name}"; the benchmarks are: ${BENCHMARKS.join(", ")}`);
    process.exit(2);
  }
}
const selected = names.length > 0 ? BENCHMARKS.filter((name) => names.includes(name)) : BENCHMARKS;

const failed: string[] = [];
const started = performance.now();
for (const name of selected) {
  console.log(`── ${name}`);
  const result = spawnSync(
    process.execPath,
    [fileURLToPath(new URL(`${name}.ts`, import.meta.url)), ...(quick ? ["--quick"] : [])],
    { stdio: "inherit" },
  );
  if (result.status !== 0) failed.push(name);
}
console.log(`\n${selected.length} benchmarks in ${Math.round((performance.now() - started) / 1000)} s`);
printTable(selected, quick);
if (failed.length > 0) {
  console.error(`failed to run: ${failed.join(", ")}`);
  process.exitCode = 1;
}
