import { AsyncLocalStorage } from "node:async_hooks";
import { watch } from "node:fs";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir, userInfo } from "node:os";
import { join } from "node:path";

/**
 * How many child processes the whole test suite starts at once, across every vitest project and worker.
 * Starting Node, n8n or a PDS costs a second or more of CPU; with several projects each starting their
 * own, a busy two-core machine ran sixteen at once and a test was killed by its timeout.
 *
 * A slot is a file `slot-<i>` holding its owner's pid, made with a hard link (which fails when the slot
 * is taken, and never shows a half-written file), in one directory per run: the root vitest config's
 * global setup makes it and every worker of every project inherits it (SOCIALPUB_PROCESS_SLOT_DIR), so
 * the bound holds for the whole run; without that setup, one directory per user is shared. A slot whose pid is no longer alive (a worker killed mid-test) is taken over, so a
 * crash never leaves a slot held. Nested holders do not wait on themselves: a call inside another
 * holder's work in the same process, or made by a process whose parent holds a slot, runs at once.
 *
 * Short commands hold a slot for their whole run, servers only until they are ready (a running server
 * is idle), so a test that keeps several servers up never waits on itself.
 */
export const PROCESS_SLOTS =
  Number(process.env.SOCIALPUB_PROCESS_SLOTS) || Math.max(2, availableParallelism());

const SLOT_DIR =
  process.env.SOCIALPUB_PROCESS_SLOT_DIR || join(tmpdir(), `socialpub-process-slots-${userInfo().uid}`);
/** A slot freed by another process is noticed through a directory watch; this is the fallback. */
const RECHECK_MS = 250;

const holding = new AsyncLocalStorage<true>();
let mostAtOnce = 0;
let heldHere = 0;
let taken = 0;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function holderOf(file: string): Promise<number | null> {
  const pid = Number((await readFile(file, "utf8").catch(() => "")).trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/** Takes a free slot, or frees a dead holder's; null when every slot is held by a live process. */
async function tryTake(): Promise<string | null> {
  await mkdir(SLOT_DIR, { recursive: true });
  const mine = join(SLOT_DIR, `pid-${process.pid}-${++taken}`);
  await writeFile(mine, String(process.pid));
  try {
    for (let i = 0; i < PROCESS_SLOTS; i++) {
      const file = join(SLOT_DIR, `slot-${i}`);
      try {
        await link(mine, file);
        return file;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      // No holder read means the slot was freed between the link and the read, and may already be
      // someone else's again: only a slot naming a dead pid is taken over.
      const holder = await holderOf(file);
      if (holder !== null && !alive(holder)) await rm(file, { force: true });
    }
    return null;
  } finally {
    await rm(mine, { force: true });
  }
}

/** Whether this process's parent holds a slot: a child started inside a slot runs in its parent's. */
async function parentHolds(): Promise<boolean> {
  for (let i = 0; i < PROCESS_SLOTS; i++) {
    if ((await holderOf(join(SLOT_DIR, `slot-${i}`))) === process.ppid) return true;
  }
  return false;
}

async function take(): Promise<string> {
  for (;;) {
    const file = await tryTake();
    if (file) return file;
    // Wait for a change in the directory (a slot freed), or the fallback interval for a holder that died.
    await new Promise<void>((resolve) => {
      const watcher = watch(SLOT_DIR, () => done());
      const timer = setTimeout(done, RECHECK_MS);
      function done() {
        clearTimeout(timer);
        watcher.close();
        resolve();
      }
    });
  }
}

/** Runs `work` once a slot of the whole suite is free, and frees the slot when it settles. */
export async function withProcessSlot<T>(work: () => Promise<T>): Promise<T> {
  if (holding.getStore() || (await parentHolds())) return work();
  const file = await take();
  heldHere++;
  mostAtOnce = Math.max(mostAtOnce, heldHere);
  try {
    return await holding.run(true, work);
  } finally {
    heldHere--;
    await rm(file, { force: true });
  }
}

/** The most slots this process held at once (for the test of the bound). */
export function mostProcessesAtOnce(): number {
  return mostAtOnce;
}

/** How many slots are held right now, by any process (for the test of the bound). */
export async function slotsHeld(): Promise<number> {
  let held = 0;
  for (let i = 0; i < PROCESS_SLOTS; i++) if ((await holderOf(join(SLOT_DIR, `slot-${i}`))) !== null) held++;
  return held;
}
