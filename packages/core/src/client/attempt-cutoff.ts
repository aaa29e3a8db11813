import { EventEmitter } from "node:events";

/**
 * What ends one attempt early: its time allowance running out, or the caller's signal. `signal` emits
 * "abort" once, when either happens; undici takes such an EventEmitter as a request's `signal`, as it
 * takes an AbortSignal, and rejects the request when it fires.
 */
export interface AttemptCutoff {
  readonly signal: EventEmitter;
  /** True once the time allowance ran out (not set when the caller's signal ended the attempt). */
  readonly timedOut: boolean;
  /** The attempt is over: stop watching its time and the caller's signal. */
  end(): void;
}

interface Watched {
  at: number;
  expire(): void;
}

/**
 * Watches the time allowance of every attempt in flight with one timer between them, armed for the
 * earliest deadline and left armed when an attempt ends in time: when it fires it cuts off what is due
 * and arms itself for the next deadline, or stops when nothing is in flight. Client calls follow one
 * another closely, each with the same allowance, so the timer is armed about once per allowance
 * rather than once per call; a timer and an AbortController per attempt cost about as much as the rest
 * of the client's own work on a call (`pnpm bench client-overhead`). While nothing is in flight the
 * timer is unref'd: a process with nothing else to do exits, as with undici's own idle sockets.
 */
export class AttemptDeadlines {
  readonly #watched = new Set<Watched>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #armedFor = Number.POSITIVE_INFINITY;

  start(timeoutMs: number, callerSignal: AbortSignal | undefined): AttemptCutoff {
    const signal = new EventEmitter();
    let timedOut = false;
    let ended = false;
    const finish = (cutOff: boolean) => {
      if (ended) return;
      ended = true;
      this.#watched.delete(watched);
      // With nothing in flight the armed timer must not keep the process alive.
      if (this.#watched.size === 0) this.#timer?.unref();
      callerSignal?.removeEventListener("abort", onCallerAbort);
      if (cutOff) signal.emit("abort");
    };
    const onCallerAbort = () => finish(true);
    const watched: Watched = {
      at: Date.now() + timeoutMs,
      expire: () => {
        timedOut = true;
        finish(true);
      },
    };
    if (this.#watched.size === 0) this.#timer?.ref();
    this.#watched.add(watched);
    if (watched.at < this.#armedFor) this.#arm(watched.at);
    callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
    return {
      signal,
      get timedOut() {
        return timedOut;
      },
      end: () => finish(false),
    };
  }

  #arm(at: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#armedFor = at;
    // An attempt in flight keeps the process alive until its answer or its deadline, as a timer of its
    // own would; the timer is unref'd again whenever nothing is in flight.
    this.#timer = setTimeout(this.#fire, Math.max(0, at - Date.now()));
  }

  readonly #fire = (): void => {
    this.#timer = null;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const watched of [...this.#watched]) {
      if (watched.at <= now) watched.expire();
      else if (watched.at < next) next = watched.at;
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  };
}
