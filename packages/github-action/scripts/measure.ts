// What a runner pays for the bundle: `node scripts/measure.ts [dist-dir] [runs]` (default dist/, 9 runs)
// prints the size of each file in the directory, then the median time from starting
// `node <dist-dir>/index.js` to its first log line and to its exit, over the runs. Each run is a step
// that needs no network: a `release` event for a prerelease with `skip-prerelease: true`, so the step
// loads, reads its inputs and the event, logs why it skips the release and ends.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

interface Run {
  firstLineMs: number;
  exitMs: number;
}

function stepEnvironment(dir: string): NodeJS.ProcessEnv {
  const eventPath = join(dir, "event.json");
  const release = {
    id: 1,
    tag_name: "v1.0.0-rc.1",
    name: "v1.0.0-rc.1",
    body: "Release notes.",
    html_url: "https://github.com/octo/app/releases/tag/v1.0.0-rc.1",
    draft: false,
    prerelease: true,
    target_commitish: "main",
  };
  writeFileSync(eventPath, JSON.stringify({ action: "published", release }));
  writeFileSync(join(dir, "output"), "");
  writeFileSync(join(dir, "summary.md"), "");
  return {
    PATH: process.env.PATH ?? "",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: "release",
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: join(dir, "output"),
    GITHUB_STEP_SUMMARY: join(dir, "summary.md"),
    GITHUB_REPOSITORY: "octo/app",
    RUNNER_TEMP: dir,
    "INPUT_API-KEY": "sp_test_0123456789abcdefghijklmnopqrstuv",
    "INPUT_BASE-URL": "http://127.0.0.1:9",
    INPUT_TEMPLATE: "{repo} {name}\n{url}\n\n{body}",
    "INPUT_SKIP-PRERELEASE": "true",
    "INPUT_DRY-RUN": "false",
  };
}

function runOnce(entry: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    let firstLineMs: number | undefined;
    let output = "";
    const child = spawn(process.execPath, [entry], { env, stdio: ["ignore", "pipe", "pipe"] });
    const onData = (chunk: Buffer) => {
      firstLineMs ??= elapsed();
      output += chunk.toString("utf8");
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("close", (code) => {
      const exitMs = elapsed();
      if (code !== 0 || firstLineMs === undefined || !output.includes("is a prerelease")) {
        reject(new Error(`${entry} did not skip the prerelease (exit code ${code}):\n${output}`));
      } else {
        resolvePromise({ firstLineMs, exitMs });
      }
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

export async function measure(distDir: string, runs: number): Promise<void> {
  let total = 0;
  for (const name of readdirSync(distDir).sort()) {
    const size = statSync(join(distDir, name)).size;
    total += size;
    console.log(`${name.padEnd(16)} ${megabytes(size).padStart(9)}`);
  }
  console.log(`${"total".padEnd(16)} ${megabytes(total).padStart(9)}`);
  const dir = mkdtempSync(join(tmpdir(), "action-measure-"));
  try {
    const env = stepEnvironment(dir);
    const entry = join(distDir, "index.js");
    await runOnce(entry, env); // a first run to warm the file cache; not counted
    const results: Run[] = [];
    for (let i = 0; i < runs; i++) results.push(await runOnce(entry, env));
    const firstLine = median(results.map((run) => run.firstLineMs));
    const exit = median(results.map((run) => run.exitMs));
    console.log(`first log line   ${firstLine.toFixed(0).padStart(6)} ms (median of ${runs} runs)`);
    console.log(`exit             ${exit.toFixed(0).padStart(6)} ms (median of ${runs} runs)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const distDir = resolve(process.argv[2] ?? join(packageDir, "dist"));
  const runs = Number(process.argv[3] ?? 9);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`runs must be a whole number above 0, not ${process.argv[3]}`);
  await measure(distDir, runs);
}
