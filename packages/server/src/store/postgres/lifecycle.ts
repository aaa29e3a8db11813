import type { StoreWakeups } from "@socialpub/core";
import { type PostgresCore, WAKE_CHANNEL } from "./core.ts";
import { unavailableIfConnectionLost } from "./failures.ts";

/** The first half of the two-number advisory lock key of per-user locks ("sp" in ASCII). */
const USER_LOCK_SPACE = 0x7370;

export async function listen(core: PostgresCore, wakeups: StoreWakeups): Promise<() => Promise<void>> {
  // Many events written at once (a batch of posts published) are one wake-up for the worker.
  let owed: ReturnType<typeof setTimeout> | null = null;
  const onNotify = (payload: string) => {
    if (payload.startsWith("due:")) {
      const at = Number(payload.slice(4));
      if (Number.isFinite(at)) wakeups.postDue(at);
    } else if (payload === "grants") {
      wakeups.grantsChanged?.();
    } else if (payload.startsWith("attempt:")) {
      const at = Number(payload.slice(8));
      if (Number.isFinite(at)) wakeups.attemptStarted?.(at);
    } else if (payload.startsWith("retry:")) {
      const at = Number(payload.slice(6));
      if (Number.isFinite(at)) wakeups.retryDue?.(at);
    } else if (payload === "owed" && owed === null) {
      owed = setTimeout(() => {
        owed = null;
        wakeups.deliveriesOwed();
      }, 20);
    }
  };
  // The driver keeps a connection of its own for this and listens again after it reconnects; what
  // was written while it was away is found by the timers' next look at the store.
  const { unlisten } = await core.guard(() =>
    core.listener.listen(WAKE_CHANNEL, onNotify, () => wakeups.deliveriesOwed()),
  );
  return async () => {
    if (owed !== null) clearTimeout(owed);
    await unlisten().catch(() => {});
  };
}

export async function exclusivelyForUser<T>(
  core: PostgresCore,
  userId: string,
  work: () => Promise<T>,
): Promise<T> {
  // A transaction-level advisory lock, held by a transaction on a connection of its own while `work`
  // runs (on the other pool), and released by the database should this process die holding it. A
  // transaction rather than a reserved connection and a session lock: the driver hands a reserved
  // connection that closed while reserved back to the pool as if it were open, so a database restart
  // left the lock pool dead. A lock wait is bounded by the statement timeout (503).
  let started: Promise<T> | null = null;
  let abandoned = false;
  let held!: () => void;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const run = core.locks.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${USER_LOCK_SPACE}, hashtext(${userId}))`;
    // Answered 503 already: the work must not start behind the caller's back.
    if (abandoned) throw new Error("the lock came after its deadline");
    held();
    started = work();
    return await started;
  });
  run.catch(() => {});
  try {
    // Only taking the lock is bounded by the deadline: the locked work bounds its own calls.
    await core
      .guard(() => Promise.race([holding, run.then(() => {})]))
      .catch((error: unknown) => {
        abandoned = true;
        throw error;
      });
    return (await run) as T;
  } catch (error) {
    // The lock's connection was lost while `work` ran: the work is store transactions of its own, so
    // it finishes, and its own outcome is the answer.
    if (started) return await started;
    throw unavailableIfConnectionLost(error, core.description);
  }
}
