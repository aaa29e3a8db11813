// What importing one of @socialpub/core's entry points loads and costs, in a fresh Node process each
// time: the modules it resolves (to check a layer does not pull in another's dependencies) and how long
// the import takes. Used by test/entry-points.test.ts and scripts/import-cost.ts.
import { spawn } from "node:child_process";
import { once } from "node:events";

export interface EntryLoad {
  /** Every file URL resolved while importing the entry, each once, in order (node: builtins left out); empty without `trace`. */
  urls: string[];
  /** The npm packages among them, by name (`undici`, `@scope/name`), each once. */
  packages: string[];
  /** Milliseconds from just before the `import()` to just after it settled. */
  importMs: number;
  /** CPU milliseconds the process spent meanwhile (all its threads): steadier than `importMs` on a busy machine. */
  cpuMs: number;
}

// Runs in the child: records every resolution through a synchronous module hook (unless only the time
// is wanted: a hook slows each import a little), imports the entry, prints one JSON line. The specifier
// comes in argv so nothing is spliced into code.
const TRACE = `
import { registerHooks } from "node:module";
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    if (!result.url.startsWith("node:") && !urls.includes(result.url)) urls.push(result.url);
    return result;
  },
});
`;
const program = (trace: boolean) => `
const urls = [];
${trace ? TRACE : ""}
const cpuBefore = process.cpuUsage();
const started = performance.now();
await import(process.argv[1]);
const importMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const cpuMs = (cpu.user + cpu.system) / 1000;
process.stdout.write(JSON.stringify({ urls, importMs, cpuMs }) + "\\n");
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
  options: { cwd: string; node?: string; env?: NodeJS.ProcessEnv; trace?: boolean },
): Promise<EntryLoad> {
  const args = ["--input-type=module", "-e", program(options.trace ?? true), specifier];
  const child = spawn(options.node ?? process.execPath, args, {
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
  const { urls, importMs, cpuMs } = JSON.parse(stdout) as { urls: string[]; importMs: number; cpuMs: number };
  const packages = [...new Set(urls.map(packageOf).filter((name) => name !== undefined))].sort();
  return { urls, packages, importMs, cpuMs };
}
