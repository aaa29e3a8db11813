import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { withProcessSlot } from "../../../../test-support/process-slots.ts";

export interface ReferenceServer {
  /** e.g. http://127.0.0.1:41234/api/v1 */
  baseUrl: string;
  /** The dev user's test key, as the CLI printed it (empty for a server started without --dev). */
  apiKey: string;
  stop(): Promise<void>;
}

/** The server package's CLI file, from its package.json `bin`. */
function serverCli(): string {
  const manifest = createRequire(import.meta.url).resolve("@socialpub/server/package.json");
  const bin = JSON.parse(readFileSync(manifest, "utf8")).bin as Record<string, string>;
  return join(dirname(manifest), bin["socialpub-server"]!);
}

export interface ServerOptions {
  /** Arguments after `start --port 0`; default `--dev --db :memory:` (a dev user with a test key). */
  args?: string[];
  /** Added to this process's environment, e.g. SOCIALPUB_SECRET_KEY for a live key's credentials. */
  env?: Record<string, string>;
}

/**
 * The real reference server as a process: by default `start --port 0 --dev --db :memory:`, which creates
 * a dev user with a test key and connected sandbox accounts and prints the key and the address. The start
 * holds one of the suite's process slots; the running server, idle, does not.
 */
export function startReferenceServer(options: ServerOptions = {}): Promise<ReferenceServer> {
  return withProcessSlot(() => startNow(options));
}

function startNow(options: ServerOptions): Promise<ReferenceServer> {
  const args = options.args ?? ["--dev", "--db", ":memory:"];
  const dev = args.includes("--dev");
  const child: ChildProcess = spawn(
    process.execPath,
    [serverCli(), "start", "--port", "0", ...args, "--log-level", "warn"],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...options.env } },
  );
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`The reference server did not start.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, 20_000);
    const onEarlyExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`The reference server exited (${code}).\nstdout: ${stdout}\nstderr: ${stderr}`));
    };
    child.once("exit", onEarlyExit);
    const onData = () => {
      const base = /^Base URL: (\S+)$/m.exec(stdout)?.[1];
      const key = /^API key: (\S+)$/m.exec(stdout)?.[1];
      if (!base || (!key && dev)) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      child.off("exit", onEarlyExit);
      resolve({
        baseUrl: base,
        apiKey: key ?? "",
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
          await exited;
        },
      });
    };
    child.stdout!.on("data", onData);
  });
}
