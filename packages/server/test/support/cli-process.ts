import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type ProgramResult, runProgram } from "../../../../test-support/run-program.ts";
import { withProcessSlot } from "./process-slots.ts";

export const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));
const CRASH_AFTER_COMMIT = fileURLToPath(new URL("./crash-after-commit.ts", import.meta.url));

/** A key in the shape the service accepts, fixed so a test can use it across restarts. */
export const TEST_KEY = "sp_test_RestartAndKillTestsKey0123456789abcdef";

export type CliResult = ProgramResult;

export { runProgram };

/** Runs one CLI command to completion, one slot at a time, with `input` on its standard input. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, input = ""): Promise<CliResult> {
  return runProgram(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, input });
}

/** Runs a command line as a user pastes it into `sh`, in this process's folder, one slot at a time. */
export function runShell(commandLine: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runProgram("sh", ["-c", commandLine], { env: { ...process.env, ...env }, timeoutMs: 120_000 });
}

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Origin the server printed, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  /** Everything written to stdout so far. */
  readonly output: () => string;
  /** The key from an `API key: …` line, when one was printed. */
  readonly printedKey: string | null;
  /** Sends a signal and resolves with the exit code (or the signal name when killed by one). */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/** Starts `socialpub-server start` as a child process and waits until it prints where it listens. */
export function startServerProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  return startListeningProcess([CLI, "start", "--port", "0", ...args], env);
}

/**
 * A server on `database` that kills itself with SIGKILL right after the `which`-th call of the store
 * method `method` has committed (see crash-after-commit.ts).
 */
export function startCrashingServer(database: string, method: string, which = 1): Promise<ServerProcess> {
  return startListeningProcess([CRASH_AFTER_COMMIT, database, method, String(which)]);
}

/**
 * Runs `node <args>` and waits until the process prints `listening on <url>`, as the server does. The
 * start holds a process slot; the running server does not.
 */
export function startListeningProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  return withProcessSlot(() => startListeningNow(args, env));
}

function startListeningNow(args: string[], env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
  });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server did not start in time.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, 60_000);
    const onData = () => {
      const match = /listening on (https?:\/\/\S+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off("data", onData);
      resolve({
        child,
        url: match[1]!,
        output: () => stdout,
        printedKey: /^API key: (\S+)$/m.exec(stdout)?.[1] ?? null,
        stop: (signal = "SIGTERM") => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout.on("data", onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(
        new Error(`the server exited (${code}) before listening.\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    });
  });
}

/** A request to a running server with a key; resolves with status and parsed body. */
export async function api(
  server: { url: string },
  key: string,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field by the tests.
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined && { "content-type": "application/json" }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
