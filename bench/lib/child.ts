import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { bundledScript } from "./bundled.ts";

/*
 * The load generator and the server under test never share an event loop: each server runs in a child
 * process of its own, forked with an IPC channel. The protocol is three messages:
 *   child → parent  { type: "ready", url }        once it listens
 *   parent → child  { type: "stats" }              answered with { type: "stats", rss, counters }
 *   parent → child  { type: "stop" }               the child closes and exits
 * Set BENCH_PROFILE_DIR to a folder to run every child with --cpu-prof, written there when it stops.
 */

export interface ChildStats {
  /** Resident set size, in bytes. */
  rss: number;
  /** Whatever the child counts (deliveries received, …). */
  counters: Record<string, number>;
}

export type ChildMessage = { type: "ready"; url: string } | ({ type: "stats" } & ChildStats);
export type ParentMessage = { type: "stats" } | { type: "stop" };

export interface ChildServer {
  /** Origin the child answers on, e.g. http://127.0.0.1:40123. */
  readonly url: string;
  readonly pid: number;
  /** The child's resident set size, in bytes, as it reports it. */
  rss(): Promise<number>;
  /** Its RSS and counters. */
  stats(): Promise<ChildStats>;
  /** Asks the child to close, and waits for it to exit. */
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 60_000;

/**
 * Runs `script` bundled (./bundled.ts says why). `nodeFlags`: options for the child's Node (the reference
 * server gets the ones its own start uses).
 */
export async function startChild(
  script: URL,
  args: string[] = [],
  nodeFlags: readonly string[] = [],
): Promise<ChildServer> {
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const child = fork(fileURLToPath(await bundledScript(script)), args, {
    // Request logs go to /dev/null, as a production server's would go to a collector: written, not read.
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    execArgv: [...nodeFlags, ...(profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [])],
  });
  const url = await waitForReady(child);
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  const stats = async (): Promise<ChildStats> => {
    const reply = nextMessage(child, "stats");
    child.send({ type: "stats" } satisfies ParentMessage);
    const message = await reply;
    if (message.type !== "stats") throw new Error("unexpected message from the benchmark server");
    return { rss: message.rss, counters: message.counters };
  };
  return {
    url,
    pid: child.pid!,
    rss: async () => (await stats()).rss,
    stats,
    stop: async () => {
      if (exited) return;
      const exit = once(child, "exit");
      child.send({ type: "stop" } satisfies ParentMessage);
      const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exit;
      clearTimeout(force);
    },
  };
}

async function waitForReady(child: ChildProcess): Promise<string> {
  const timer = setTimeout(() => child.kill("SIGKILL"), STARTUP_TIMEOUT_MS);
  try {
    const ready = nextMessage(child, "ready");
    const failed = once(child, "exit").then(([code]) => {
      throw new Error(`the benchmark server exited with code ${code} before it was ready`);
    });
    const message = await Promise.race([ready, failed]);
    if (message.type !== "ready") throw new Error("unexpected message from the benchmark server");
    return message.url;
  } finally {
    clearTimeout(timer);
  }
}

function nextMessage(child: ChildProcess, type: ChildMessage["type"]): Promise<ChildMessage> {
  return new Promise((resolve) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type !== type) return;
      child.off("message", onMessage);
      resolve(message);
    };
    child.on("message", onMessage);
  });
}
