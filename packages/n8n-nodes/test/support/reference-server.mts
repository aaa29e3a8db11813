import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { withProcessSlot } from "../../../../test-support/process-slots.ts";

export interface ReferenceServer {
  /** e.g. http://127.0.0.1:41234/api/v1 */
  baseUrl: string;
  /** The dev user's test key, as the CLI printed it. */
  apiKey: string;
  /** Everything the server wrote, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** The server package's CLI file, found through its package.json `bin`. */
export function serverCli(): string {
  const manifest = createRequire(import.meta.url).resolve("@socialpub/server/package.json");
  const bin = JSON.parse(readFileSync(manifest, "utf8")).bin as Record<string, string>;
  return join(dirname(manifest), bin["socialpub-server"] ?? "src/cli.ts");
}

export interface ReferenceServerOptions {
  /** A database file, for commands (`keys create --live`) to share with the server; in memory when absent. */
  db?: string;
  /** Added to the server's environment, e.g. SOCIALPUB_SECRET_KEY for live accounts. */
  env?: NodeJS.ProcessEnv;
  extraArgs?: string[];
}

/**
 * The real reference server as a process on port 0: `start --port 0 --dev --db :memory:` creates a dev
 * user (studio plan) with a test key and connected sandbox accounts and prints the key and address.
 */
export function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  // Starting Node costs seconds of CPU on a busy machine: it takes a slot of the suite's bound until ready.
  return withProcessSlot(() => startNow(options));
}

function startNow(options: ReferenceServerOptions): Promise<ReferenceServer> {
  const args = ["start", "--port", "0", "--dev", "--db", options.db ?? ":memory:", "--log-level", "warn"];
  const child: ChildProcess = spawn(process.execPath, [serverCli(), ...args, ...(options.extraArgs ?? [])], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...options.env },
  });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`The reference server did not start within 60 s.\n${output}`));
    }, 60_000);
    const onEarlyExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`The reference server exited (${code}).\n${output}`));
    };
    child.once("exit", onEarlyExit);
    const onData = () => {
      const baseUrl = /^Base URL: (\S+)$/m.exec(output)?.[1];
      const apiKey = /^API key: (\S+)$/m.exec(output)?.[1];
      if (!baseUrl || !apiKey) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.off("exit", onEarlyExit);
      resolve({
        baseUrl,
        apiKey,
        output: () => output,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
          await exited;
        },
      });
    };
    child.stdout?.on("data", onData);
  });
}

/** `keys create --live` for the dev user `start --dev` made, on the server's database file. */
export function keysCreateLive(db: string, env: NodeJS.ProcessEnv): Promise<string> {
  const args = [serverCli(), "keys", "create", "--live", "--user", "dev@example.com", "--db", db];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { env: { ...process.env, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}
