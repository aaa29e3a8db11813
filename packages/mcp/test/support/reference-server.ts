import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { withProcessSlot } from "../../../../test-support/process-slots.ts";

export interface ReferenceServer {
  /** e.g. http://127.0.0.1:41234/api/v1 */
  baseUrl: string;
  /** The dev user's test key (sandbox networks x, bluesky, linkedin… connected). */
  apiKey: string;
  /** Everything the server printed, to check that no key went where it should not. */
  output(): string;
  stop(): Promise<void>;
}

/** The path of a workspace package's bin, from its package.json. */
export function binOf(packageName: string, bin: string): string {
  const manifest = createRequire(import.meta.url).resolve(`${packageName}/package.json`);
  return join(
    dirname(manifest),
    (JSON.parse(readFileSync(manifest, "utf8")).bin as Record<string, string>)[bin]!,
  );
}

/** `socialpub-server start --port 0 --dev --db :memory:` as a process: a dev user with a test key. */
export function startReferenceServer(): Promise<ReferenceServer> {
  return withProcessSlot(
    () =>
      new Promise((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            binOf("@socialpub/server", "socialpub-server"),
            "start",
            "--port",
            "0",
            "--dev",
            "--db",
            ":memory:",
            "--log-level",
            "warn",
          ],
          { stdio: ["ignore", "pipe", "pipe"] },
        );
        let out = "";
        const exited = new Promise<void>((done) => child.once("exit", () => done()));
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error(`The reference server did not start:\n${out}`));
        }, 30_000);
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          out += chunk;
        });
        const onEarlyExit = (code: number | null) => {
          clearTimeout(timer);
          reject(new Error(`The reference server exited (${code}):\n${out}`));
        };
        child.once("exit", onEarlyExit);
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          out += chunk;
          const baseUrl = /^Base URL: (\S+)$/m.exec(out)?.[1];
          const apiKey = /^API key: (\S+)$/m.exec(out)?.[1];
          if (!baseUrl || !apiKey) return;
          clearTimeout(timer);
          child.off("exit", onEarlyExit);
          resolve({
            baseUrl,
            apiKey,
            output: () => out,
            stop: async () => {
              if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
              await exited;
            },
          });
        });
      }),
  );
}
