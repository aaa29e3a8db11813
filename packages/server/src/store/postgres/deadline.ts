/*
 * A bound on how long one call to the database may take, whatever the database or the driver does.
 * The statement timeout bounds a statement the database runs and the connect timeout bounds reaching
 * it, but neither bounds a query the driver never settles (a connection it lost track of across a
 * database restart): without this, the request waiting on such a query, and everything queued behind
 * it, would wait forever.
 */

/** A call that ran past its deadline: the store treats its connections as lost. */
export class DeadlineExceeded extends Error {
  readonly code = "QUERY_DEADLINE";
  constructor(ms: number) {
    super(`no answer from the database within ${ms} ms`);
    this.name = "DeadlineExceeded";
  }
}

/**
 * `work`'s outcome, or a DeadlineExceeded after `ms` (the work itself is left to settle on its own).
 * An infinite `ms` waits for the work (a timer that long would fire at once).
 */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  if (!Number.isFinite(ms)) return work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const missed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(ms)), ms);
  });
  // A late failure of the abandoned work must not surface as an unhandled rejection.
  work.catch(() => {});
  try {
    return await Promise.race([work, missed]);
  } finally {
    clearTimeout(timer);
  }
}
