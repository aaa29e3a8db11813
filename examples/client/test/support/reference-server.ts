import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { withProcessSlot } from "../../../../test-support/process-slots.ts";

export interface ReferenceServer {
  /** The API base the server printed, e.g. http://127.0.0.1:41234/api/v1. */
  baseUrl: string;
  /** The dev user's test key, as the server printed it. */
  apiKey: string;
  /** The server's SQLite file (for commands that administer it, like `keys create`). */
  db: string;
  close(): Promise<void>;
}

/**
 * The reference server as a user starts it: `socialpub-server start --dev --port 0` on a fresh SQLite
 * database, in its own process. Its URL and key are read from what it prints.
 */
export function startReferenceServer(): Promise<ReferenceServer> {
  // A slot until it prints its URL: a started server is idle, its start is what costs.
  return withProcessSlot(startReferenceServerNow);
}

async function startReferenceServerNow(): Promise<ReferenceServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "socialpub-examples-"));
  const child = spawn(
    process.execPath,
    [
      serverCli(),
      "start",
      "--dev",
      "--port",
      "0",
      "--db",
      join(dataDir, "socialpub.db"),
      "--log-level",
      "error",
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  try {
    const printed = await readUntil(child, (text) => /^Base URL: .+$/m.test(text));
    const baseUrl = /^Base URL: (\S+)$/m.exec(printed)?.[1];
    const apiKey = /^API key: (\S+)$/m.exec(printed)?.[1];
    if (!baseUrl || !apiKey) throw new Error(`the server printed no base URL or key:\n${printed}`);
    return {
      baseUrl,
      apiKey,
      db: join(dataDir, "socialpub.db"),
      close: async () => {
        const exited = once(child, "exit");
        child.kill("SIGTERM");
        await exited;
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`socialpub-server did not start: ${(error as Error).message}\n${stderr}`);
  }
}

/** The CLI entry the server package declares in its `bin`. */
function serverCli(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve("@socialpub/server/package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin: Record<string, string> };
  const bin = manifest.bin["socialpub-server"];
  if (!bin) throw new Error("@socialpub/server declares no socialpub-server bin");
  return join(dirname(manifestPath), bin);
}

function readUntil(child: ChildProcess, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk;
      if (done(text)) {
        child.stdout?.off("data", onData);
        resolve(text);
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`it exited with code ${code}`)));
  });
}
