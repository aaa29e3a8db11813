import { execFile } from "node:child_process";
import { withProcessSlot } from "./process-slots.ts";

export interface ProgramResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  input?: string;
  cwd?: string;
  timeoutMs?: number;
}

/**
 * Runs a program to completion, at most `PROCESS_SLOTS` at once (see process-slots.ts): its exit code
 * (1 when it ended without one, a timeout's kill included) and what it wrote. `input` goes to its
 * standard input, which is closed either way, so a program that reads it never waits.
 */
export function runProgram(
  file: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<ProgramResult> {
  return withProcessSlot(
    () =>
      new Promise((resolve) => {
        const child = execFile(
          file,
          args,
          // Generous: a slot bounds how many run at once, not how busy the rest of the machine is.
          {
            env: options.env ?? process.env,
            timeout: options.timeoutMs ?? 60_000,
            // npm and n8n can be wordy; a cut-off output would turn into a failure that says nothing.
            maxBuffer: 64 * 1024 * 1024,
            ...(options.cwd !== undefined && { cwd: options.cwd }),
          },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
            resolve({ code, stdout, stderr });
          },
        );
        child.stdin?.end(options.input ?? "");
      }),
  );
}
