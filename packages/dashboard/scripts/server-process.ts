import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The reference server's command line, run as users run it. */
const CLI = fileURLToPath(new URL("../../server/src/cli.ts", import.meta.url));

export interface ServerProcess {
  /** Origin, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  readonly child: ChildProcess;
  /** The JSON log lines the server wrote so far (on stdout, among the lines it prints). */
  logs(): string[];
  /** What the server printed on stdout so far (where it listens, the dev key). */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /**
   * Fills the fresh database before the server opens it (a large account written straight through the
   * store, say). When it creates a user with the dev key, `--dev` keeps that user.
   */
  seed?(dbPath: string): Promise<void>;
}

/**
 * `socialpub-server start --dev` on a fresh SQLite database in a temporary folder, on a free port,
 * with `key` as the dev user's key. Resolves once the server says where it listens.
 */
export function startSandboxServer(
  key: string,
  extraArgs: string[] = [],
  options: StartOptions = {},
): Promise<ServerProcess> {
  return startServerProcess(["--dev", "--dev-key", key, ...extraArgs], {}, options);
}

/** `socialpub-server start <args>` on a fresh database in a temporary folder, on a free port. */
export async function startServerProcess(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: StartOptions = {},
): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), "socialpub-dashboard-"));
  const db = join(dir, "socialpub.db");
  try {
    await options.seed?.(db);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const child = spawn(process.execPath, [CLI, "start", "--port", "0", "--db", db, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, SOCIALPUB_RATE_LIMIT: "0", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const cleanUp = () => rmSync(dir, { recursive: true, force: true });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server did not start within 90 s.\n${stdout}\n${stderr}`));
    }, 90_000);
    const onData = () => {
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off("data", onData);
      resolve({
        url: match[1]!,
        child,
        logs: () => stdout.split("\n").filter((line) => line.startsWith("{")),
        output: () => stdout,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
          await exited;
          cleanUp();
        },
      });
    };
    child.stdout.on("data", onData);
    void exited.then(() => {
      clearTimeout(timer);
      cleanUp();
      reject(new Error(`the server exited before listening.\n${stdout}\n${stderr}`));
    });
  });
}

/** Calls the API as an integration would. */
export async function callApi<T = unknown>(
  server: { url: string },
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined && { "content-type": "application/json" }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}
