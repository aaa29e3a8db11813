import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import type { ChildServer } from "./child.ts";

const STARTUP_TIMEOUT_MS = 60_000;

/**
 * Prism's mock server (`prism mock <document>`, defaults but the address) in its own process, serving
 * `documentPath`. Its log lines go to `logPath`. Prism serves the document's paths at the root: it does
 * not mount them under a relative server URL such as /api/v1.
 */
export async function startPrism(documentPath: string, logPath: string): Promise<ChildServer> {
  const require = createRequire(import.meta.url);
  const cli = join(dirname(require.resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");
  const port = await freePort();
  const log = openSync(logPath, "w");
  const child = spawn(process.execPath, [cli, "mock", "-h", "127.0.0.1", "-p", String(port), documentPath], {
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const exited = once(child, "exit");
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(force);
  };
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Prism exited with code ${child.exitCode}; see ${logPath}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`Prism did not start within ${STARTUP_TIMEOUT_MS / 1000} s; see ${logPath}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    url,
    pid: child.pid!,
    rss: async () => rssOfProcess(child.pid!),
    stats: async () => {
      const cpu = cpuOfProcess(child.pid!);
      const counters: Record<string, number> = Number.isNaN(cpu) ? {} : { cpu_us: cpu };
      return { rss: rssOfProcess(child.pid!), counters };
    },
    stop,
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/** Resident set size of another process, in bytes, from /proc (Linux); NaN elsewhere. */
function rssOfProcess(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Sends each request once and returns what Prism answered. Throws when an answer is not 2xx: then Prism
 * could not serve that operation from the document, and there is nothing to compare.
 */
export async function prismConformance(
  url: string,
  requests: readonly { method: string; path: string; headers?: Record<string, string>; body?: string }[],
): Promise<{ request: string; status: number; body: string }[]> {
  const answers = [];
  for (const request of requests) {
    const response = await fetch(`${url}${request.path}`, {
      method: request.method,
      headers: {
        ...request.headers,
        ...(request.body !== undefined && { "content-type": "application/json" }),
      },
      ...(request.body !== undefined && { body: request.body }),
    });
    const body = await response.text();
    const name = `${request.method} ${request.path}`;
    if (response.status < 200 || response.status > 299) {
      throw new Error(`Prism answered ${name} with ${response.status}: ${body.slice(0, 500)}`);
    }
    answers.push({ request: name, status: response.status, body: body.slice(0, 500) });
  }
  return answers;
}

/** CPU time (user + system) another process has used, in µs, from /proc (Linux); NaN elsewhere. */
function cpuOfProcess(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces) start with the state: utime and stime are
    // the 12th and 13th of them, in clock ticks (100 a second on Linux).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) / 100) * 1_000_000;
  } catch {
    return Number.NaN;
  }
}
