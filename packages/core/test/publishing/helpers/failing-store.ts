import type { Store } from "../../../src/store/types.ts";
import { StoreUnavailableError } from "../../../src/store/unavailable.ts";

/**
 * A store whose named methods fail the next given number of calls, as a database that goes away does,
 * or hold the next call until released, as a write waiting on a database coming back does.
 */
export interface FailingStore {
  store: Store;
  failNext(method: keyof Store, times: number): void;
  /** Holds the next call of `method`: `reached` once it is made, and it goes on once `release` is called. */
  holdNext(method: keyof Store): { reached: Promise<void>; release(): void };
  /** How many calls failed so far, by method. */
  failed: Map<string, number>;
}

export function failingStore(inner: Store): FailingStore {
  const pending = new Map<string, number>();
  const failed = new Map<string, number>();
  const held = new Map<string, { reach(): void; released: Promise<void> }>();
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function" || typeof name !== "string") return value;
      return (...args: unknown[]) => {
        const hold = held.get(name);
        if (hold) {
          held.delete(name);
          hold.reach();
          return hold.released.then(() => value.apply(target, args));
        }
        const left = pending.get(name) ?? 0;
        if (left > 0) {
          pending.set(name, left - 1);
          failed.set(name, (failed.get(name) ?? 0) + 1);
          return Promise.reject(new StoreUnavailableError(`${name}: the database went away`));
        }
        return value.apply(target, args);
      };
    },
  });
  return {
    store,
    failed,
    failNext: (method, times) => pending.set(method, times),
    holdNext(method) {
      const reached = Promise.withResolvers<void>();
      const released = Promise.withResolvers<void>();
      held.set(method, { reach: reached.resolve, released: released.promise });
      return { reached: reached.promise, release: released.resolve };
    },
  };
}
