/**
 * Where the service gets the time and its timers. Production uses the system clock; tests inject a
 * fake one (src/testing/fake-clock.ts) so schedules and retries run without waiting.
 */
export interface Clock {
  /** Unix time in milliseconds. */
  now(): number;
  /**
   * Calls `fn` after `ms` milliseconds. A fake clock awaits a promise `fn` returns, so a test that
   * advances time also waits for the work the timer started.
   */
  setTimeout(fn: () => unknown, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Opaque to callers: only the clock that made a handle can clear it. */
export type TimerHandle = { readonly __timer: unique symbol } | object;

/** Node's timers reject delays above 2^31 - 1 ms (about 24.8 days); longer waits are taken in steps. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const timer = setTimeout(
      () => {
        void fn();
      },
      Math.max(0, Math.min(ms, MAX_TIMER_DELAY_MS)),
    );
    // A pending schedule must not keep a process alive on its own; the server keeps itself alive.
    timer.unref?.();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
