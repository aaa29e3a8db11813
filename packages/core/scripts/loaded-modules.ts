// What importing one of @socialpub/core's entry points loads and costs, in a fresh Node process each
// time: the modules it resolves (to check a layer does not pull in another's dependencies) and how long
// the import takes. Used by test/entry-points.test.ts and scripts/import-cost.ts.
import { spawn } from "node:child_process";
import { once } from "node:events";

export interface EntryLoad {
  /** Every file URL resolved while importing the entry, in order (node: builtins left out). */
  urls: string[];
  /** The npm packages among them, by name (`undici`, `@scope/name`), each once. */
  packages: string[];
  /** Milliseconds from just before the `import()` to just after it settled. */
  importMs: number;
}

// Runs in the child: records every resolution through a synchronous module hook, imports the entry,
// prints one JSON line. The specifier comes in argv so nothing is spliced into code.
const PROGRAM = `
import { registerHooks } from "node:module";
const urls = [];
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    if (!result.url.startsWith("node:")) urls.push(result.url);
    return result;
  },
});
const started = performance.now();
await import(process.argv[1]);
const importMs = performance.now() - started;
process.stdout.write(JSON.stringify({ urls, importMs }) + "\\n");
`;

/** The package a `file:` URL belongs to: the path segment(s) after its last `node_modules/`. */
export function packageOf(url: string): string | undefined {
  const at = url.lastIndexOf("/node_modules/");
  if (at < 0) return undefined;
  const [first, second] = url.slice(at + "/node_modules/".length).split("/");
  if (first === undefined) return undefined;
  return first.startsWith("@") && second !== undefined ? `${first}/${second}` : first;
}

/**
 * Imports `specifier` (e.g. `@socialpub/core/client`) in a new `node` process started in `cwd`, where it
 * must resolve: this package's folder resolves its own name, so the workspace sources are loaded there.
 */
export async function loadEntry(
  specifier: string,
  options: { cwd: string; node?: string; env?: NodeJS.ProcessEnv },
): Promise<EntryLoad> {
  const child = spawn(options.node ?? process.execPath, ["--input-type=module", "-e", PROGRAM, specifier], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`importing ${specifier} failed (exit ${code}): ${stderr.trim()}`);
  const { urls, importMs } = JSON.parse(stdout) as { urls: string[]; importMs: number };
  const packages = [...new Set(urls.map(packageOf).filter((name) => name !== undefined))].sort();
  return { urls, packages, importMs };
}
