// Runs every benchmark in turn, each in its own process so one cannot warm up or slow down another.
//
//   pnpm bench
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const BENCHMARKS = ["client-overhead.ts"];

let failed = 0;
for (const file of BENCHMARKS) {
  console.log(`── ${file}`);
  const result = spawnSync(process.execPath, [fileURLToPath(new URL(file, import.meta.url))], {
    stdio: "inherit",
  });
  if (result.status !== 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
