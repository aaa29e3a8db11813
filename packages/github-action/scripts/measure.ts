// What a runner pays for the bundle: `node scripts/measure.ts [dist-dir] [runs]` (default dist/, 9 runs)
// prints the size of the directory's files (JavaScript, source maps, the rest), then the median time
// from starting `node <dist-dir>/index.js` to its first log line and to its exit, over the runs, for a
// step with a service (`api-key`, `base-url`) and one in direct mode (`bluesky-handle`,
// `bluesky-app-password`). Each run needs no network: a `release` event for a prerelease with
// `skip-prerelease: true`, so the step loads, reads its inputs and the event, logs why it skips the
// release and ends. The machine's other work stretches the times; the CPU time the step used (user and
// system, reported by the step's process as it exits, through a module preloaded with --import) is
// steadier when the machine is busy.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

interface Run {
  firstLineMs: number;
  exitMs: number;
  cpuMs: number;
}

/** Preloaded into the step: writes the CPU time it used to file descriptor 3 as it exits. */
const CPU_REPORTER = `data:text/javascript,${encodeURIComponent(
  'import { writeSync } from "node:fs"; process.on("exit", () => { const { user, system } = process.cpuUsage(); writeSync(3, String((user + system) / 1000)); });',
)}`;

type Mode = "service" | "direct";

function stepEnvironment(dir: string, mode: Mode): NodeJS.ProcessEnv {
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
    ...(mode === "service"
      ? {
          "INPUT_API-KEY": "sp_test_0123456789abcdefghijklmnopqrstuv",
          "INPUT_BASE-URL": "http://127.0.0.1:9",
        }
      : { "INPUT_BLUESKY-HANDLE": "octo.example", "INPUT_BLUESKY-APP-PASSWORD": "abcd-efgh-ijkl-mnop" }),
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
    let cpu = "";
    const child = spawn(process.execPath, ["--import", CPU_REPORTER, entry], {
      env,
      stdio: ["ignore", "pipe", "pipe", "pipe"],
    });
    child.stdio[3]?.on("data", (chunk: Buffer) => {
      cpu += chunk.toString("utf8");
    });
    const onData = (chunk: Buffer) => {
      firstLineMs ??= elapsed();
      output += chunk.toString("utf8");
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("error", reject);
    child.on("close", (code) => {
      const exitMs = elapsed();
      if (code !== 0 || firstLineMs === undefined || !output.includes("is a prerelease")) {
        reject(new Error(`${entry} did not skip the prerelease (exit code ${code}):\n${output}`));
      } else {
        resolvePromise({ firstLineMs, exitMs, cpuMs: Number(cpu) });
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
  const kinds = new Map<string, { files: number; bytes: number }>();
  for (const name of readdirSync(distDir, { recursive: true, encoding: "utf8" })) {
    const stats = statSync(join(distDir, name));
    if (!stats.isFile()) continue;
    const kind = name.endsWith(".js") ? "JavaScript" : name.endsWith(".map") ? "source maps" : "other";
    for (const key of [kind, "total"]) {
      const sum = kinds.get(key) ?? { files: 0, bytes: 0 };
      kinds.set(key, { files: sum.files + 1, bytes: sum.bytes + stats.size });
    }
  }
  for (const key of ["JavaScript", "source maps", "other", "total"]) {
    const sum = kinds.get(key) ?? { files: 0, bytes: 0 };
    console.log(`${key.padEnd(12)} ${megabytes(sum.bytes).padStart(9)} in ${sum.files} files`);
  }
  const dir = mkdtempSync(join(tmpdir(), "action-measure-"));
  try {
    const entry = join(distDir, "index.js");
    for (const mode of ["service", "direct"] as const) {
      const env = stepEnvironment(dir, mode);
      await runOnce(entry, env); // a first run to warm the file cache; not counted
      const results: Run[] = [];
      for (let i = 0; i < runs; i++) results.push(await runOnce(entry, env));
      const firstLine = median(results.map((run) => run.firstLineMs)).toFixed(0);
      const exit = median(results.map((run) => run.exitMs)).toFixed(0);
      const cpu = median(results.map((run) => run.cpuMs)).toFixed(0);
      console.log(
        `${mode.padEnd(7)} first log line ${firstLine} ms, exit ${exit} ms, CPU ${cpu} ms (medians of ${runs} runs)`,
      );
    }
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
