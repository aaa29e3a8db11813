// What importing each entry point of @socialpub/core costs: the median time of `await import(entry)` over
// fresh Node processes (Node's own start-up left out), and how many modules and npm packages it loads.
// It imports the built files users get (dist/, through publishConfig's exports), from a folder outside
// the workspace where @socialpub/core is this package packed and installed, so build first:
//
//   pnpm --filter @socialpub/core build && node packages/core/scripts/import-cost.ts [--runs N]
//
// Prints a Markdown table (the one in README.md). The entries are measured in turn, round after round,
// so a busy moment on the machine spreads over all of them instead of landing on one.
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadEntry } from "./loaded-modules.ts";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const ENTRIES = [
  "@socialpub/core/contract",
  "@socialpub/core/client",
  "@socialpub/core/service",
  "@socialpub/core",
];

const runsArg = process.argv.indexOf("--runs");
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;
if (!Number.isInteger(runs) || runs < 1) {
  console.error("--runs takes a whole number of rounds, e.g. --runs 15");
  process.exit(2);
}
if (!existsSync(join(packageDir, "dist", "index.js"))) {
  console.error("dist/ is missing: run `pnpm --filter @socialpub/core build` first");
  process.exit(1);
}

// The package as published: package.json with publishConfig applied, dist/, and its dependencies
// (linked from this package's node_modules, the versions the lockfile pins).
const work = mkdtempSync(join(tmpdir(), "socialpub-import-cost-"));
try {
  const installed = join(work, "node_modules", "@socialpub", "core");
  mkdirSync(installed, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  manifest.exports = manifest.publishConfig.exports;
  delete manifest.publishConfig;
  writeFileSync(join(installed, "package.json"), JSON.stringify(manifest, null, 2));
  cpSync(join(packageDir, "dist"), join(installed, "dist"), { recursive: true });
  for (const name of Object.keys(manifest.dependencies)) {
    const target = join(work, "node_modules", name);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(packageDir, "node_modules", name), target, "dir");
  }
  writeFileSync(join(work, "package.json"), JSON.stringify({ type: "module" }));

  const times = new Map<string, number[]>(ENTRIES.map((entry) => [entry, []]));
  const cpuTimes = new Map<string, number[]>(ENTRIES.map((entry) => [entry, []]));
  const shape = new Map<string, { modules: number; packages: string[] }>();
  for (const entry of ENTRIES) {
    const load = await loadEntry(entry, { cwd: work, trace: true });
    shape.set(entry, {
      modules: load.urls.length,
      packages: load.packages.filter((name) => name !== "@socialpub/core"),
    });
  }
  for (let round = 0; round < runs; round++) {
    for (const entry of ENTRIES) {
      const { importMs, cpuMs } = await loadEntry(entry, { cwd: work, trace: false });
      times.get(entry)!.push(importMs);
      cpuTimes.get(entry)!.push(cpuMs);
    }
  }

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const cpu = (() => {
    try {
      return execFileSync("sh", ["-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], {
        encoding: "utf8",
      }).trim();
    } catch {
      return "";
    }
  })();
  const [load] = loadavg();
  console.log(
    `Node ${process.version}${cpu ? `, ${cpu}` : ""}, ${availableParallelism()} cores, load average ${load?.toFixed(1)}; median of ${runs} fresh processes, ${new Date().toISOString().slice(0, 10)}\n`,
  );
  console.log("| entry | import, wall clock | import, CPU time | modules | npm packages loaded |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const entry of ENTRIES) {
    const { modules, packages } = shape.get(entry)!;
    console.log(
      `| \`${entry}\` | ${median(times.get(entry)!).toFixed(0)} ms | ${median(cpuTimes.get(entry)!).toFixed(0)} ms | ${modules} | ${packages.map((name) => `\`${name}\``).join(", ")} |`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
