import { setTimeout as sleep } from "node:timers/promises";

/** Waits `ms`; when `signal` aborts meanwhile, rejects with the signal's own reason (as fetch does). */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}
