import { Worker } from "node:worker_threads";
import type { Synchronous } from "./core.ts";

/**
 * In WAL mode, committed pages are copied back into the database file by checkpoints. SQLite runs one
 * inside the commit that takes the WAL past 1 000 pages — on the thread that committed, which for the
 * server is the thread answering requests: a page copy and a disk sync of the WAL and the database,
 * every few hundred writes, took about a third of the time of a write request.
 *
 * This runs PASSIVE checkpoints from a thread of its own, on a connection of its own, every
 * `intervalMs`: the request thread only appends to the WAL. Durability is unchanged — a commit is in the
 * WAL before it returns, whoever checkpoints it later — and a PASSIVE checkpoint never waits for, nor
 * blocks, readers and writers. Should this thread fall behind, the store's own connection still
 * checkpoints once the WAL passes `FALLBACK_AUTOCHECKPOINT_PAGES`.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;
export const DEFAULT_CHECKPOINT_INTERVAL_MS = 200;

// Evaluated as CommonJS in the worker: a source string, so a build to dist/ has no extra file to find.
const WORKER_SOURCE = `
const { DatabaseSync } = require("node:sqlite");
const { parentPort, workerData } = require("node:worker_threads");
const db = new DatabaseSync(workerData.path, { timeout: workerData.busyTimeoutMs });
db.exec("PRAGMA synchronous = " + workerData.synchronous);
const timer = setInterval(() => {
  try {
    db.exec("PRAGMA wal_checkpoint(PASSIVE)");
  } catch {
    // Busy or failing: the next tick tries again, and the store's own fallback bounds the WAL.
  }
}, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface BackgroundCheckpoints {
  /** Stops the thread after its checkpoint in progress, if any. */
  stop(): Promise<void>;
}

export function startBackgroundCheckpoints(options: {
  path: string;
  synchronous: Synchronous;
  busyTimeoutMs: number;
  intervalMs?: number;
}): BackgroundCheckpoints {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      path: options.path,
      synchronous: options.synchronous === "full" ? "FULL" : "NORMAL",
      busyTimeoutMs: options.busyTimeoutMs,
      intervalMs: options.intervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS,
    },
  });
  // The thread alone never keeps the process alive.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  let stopping: Promise<void> | undefined;
  return {
    stop: () => {
      stopping ??= (async () => {
        worker.postMessage("stop");
        const cut = setTimeout(() => void worker.terminate(), 5_000);
        await exited;
        clearTimeout(cut);
      })();
      return stopping;
    },
  };
}
