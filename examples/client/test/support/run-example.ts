import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { withProcessSlot } from "../../../../test-support/process-slots.ts";

const EXAMPLES_DIR = fileURLToPath(new URL("../..", import.meta.url));

export interface ExampleResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an example script to its end as a child process, the way a user would: `node <script> …`. */
export async function runExample(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<ExampleResult> {
  return withProcessSlot(() => runExampleNow(script, args, env));
}

async function runExampleNow(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<ExampleResult> {
  const child = spawnExample(script, args, env);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}

export function spawnExample(script: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [script, ...args], {
    cwd: EXAMPLES_DIR,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}
