/*
 * Remembers until when a network asked us to hold off (a 429's retry hint, a rate-limit bucket that
 * ran out), per key, so the next request waits instead of earning another 429. A wait longer than
 * `maxWaitMs` is not slept through: the caller is told how long, and the service schedules the retry.
 */

export interface GateOptions {
  /** Longest wait slept through before a request; longer ones are handed back to the caller. */
  maxWaitMs: number;
  now?: () => number;
}

export class WaitGate {
  readonly #until = new Map<string, number>();
  readonly #maxWaitMs: number;
  readonly #now: () => number;

  constructor(options: GateOptions) {
    this.#maxWaitMs = options.maxWaitMs;
    this.#now = options.now ?? Date.now;
  }

  /** Holds `key` closed for `ms` from now (keeps the later time when one is already set). */
  close(key: string, ms: number): void {
    const until = this.#now() + Math.max(0, ms);
    if ((this.#until.get(key) ?? 0) < until) this.#until.set(key, until);
  }

  /** How long `keys` stay closed, in milliseconds (0 when all are open). */
  remaining(keys: readonly string[]): number {
    const now = this.#now();
    let wait = 0;
    for (const key of keys) {
      const until = this.#until.get(key);
      if (until === undefined) continue;
      if (until <= now) this.#until.delete(key);
      else wait = Math.max(wait, until - now);
    }
    return wait;
  }

  /**
   * Waits until `keys` are open. Returns 0 once they are; or, without waiting further, the remaining wait
   * in milliseconds when it is longer than the gate sleeps through or `signal` aborts meanwhile.
   */
  async pass(keys: readonly string[], signal: AbortSignal): Promise<number> {
    for (;;) {
      const wait = this.remaining(keys);
      if (wait === 0) return 0;
      if (wait > this.#maxWaitMs || signal.aborted) return wait;
      await sleep(wait, signal);
    }
  }
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
