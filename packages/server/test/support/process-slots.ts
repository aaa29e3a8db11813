/**
 * How many child processes a test file starts at once. Starting Node with the CLI costs a second or more
 * of CPU; a test that started sixteen at once on a busy two-core machine had one killed by its timeout.
 * Short commands hold a slot for their whole run, servers only until they listen (a running server is
 * idle), so a test that keeps several servers up never waits on itself.
 */
export const PROCESS_SLOTS = 2;

let running = 0;
let mostAtOnce = 0;
const waiting: (() => void)[] = [];

/** Runs `work` once a slot is free, and frees the slot when it settles. */
export async function withProcessSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PROCESS_SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  mostAtOnce = Math.max(mostAtOnce, running);
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** The most slots ever taken at once in this process (for the test of this bound). */
export function mostProcessesAtOnce(): number {
  return mostAtOnce;
}
