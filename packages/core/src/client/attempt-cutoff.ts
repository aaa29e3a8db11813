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

/**
 * One attempt in flight. A class rather than closures and an object literal with its own getter, so
 * every attempt shares one hidden class and holds no closure over the call (docs/performance.md, "What
 * a request leaves in the old generation"). It listens to the caller's signal as an event-listener
 * object (`handleEvent`), so it needs no bound function to remove again.
 */
class Attempt implements AttemptCutoff {
  readonly signal = new EventEmitter();
  readonly at: number;
  readonly #deadlines: AttemptDeadlines;
  readonly #callerSignal: AbortSignal | undefined;
  #timedOut = false;
  #ended = false;

  constructor(deadlines: AttemptDeadlines, at: number, callerSignal: AbortSignal | undefined) {
    this.#deadlines = deadlines;
    this.at = at;
    this.#callerSignal = callerSignal;
    callerSignal?.addEventListener("abort", this, { once: true });
  }

  get timedOut(): boolean {
    return this.#timedOut;
  }

  end(): void {
    this.#finish(false);
  }

  /** Its deadline passed. */
  expire(): void {
    this.#timedOut = true;
    this.#finish(true);
  }

  /** The caller's signal fired. */
  handleEvent(): void {
    this.#finish(true);
  }

  #finish(cutOff: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#deadlines.release(this);
    this.#callerSignal?.removeEventListener("abort", this);
    if (cutOff) this.signal.emit("abort");
  }
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
  readonly #watched = new Set<Attempt>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #armedFor = Number.POSITIVE_INFINITY;

  start(timeoutMs: number, callerSignal: AbortSignal | undefined): AttemptCutoff {
    if (this.#watched.size === 0) this.#timer?.ref();
    const attempt = new Attempt(this, Date.now() + timeoutMs, callerSignal);
    this.#watched.add(attempt);
    if (attempt.at < this.#armedFor) this.#arm(attempt.at);
    return attempt;
  }

  /** An attempt ended: stop watching it. */
  release(attempt: Attempt): void {
    this.#watched.delete(attempt);
    // With nothing in flight the armed timer must not keep the process alive.
    if (this.#watched.size === 0) this.#timer?.unref();
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
