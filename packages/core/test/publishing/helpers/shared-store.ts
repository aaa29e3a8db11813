import type { MemoryStore } from "../../../src/store/memory.ts";
import type { StoreWakeups } from "../../../src/store/types.ts";

/**
 * The memory store standing for a database several instances share: nothing is released at start, and
 * the test plays the other instances' wake-ups through `wakeups()`.
 */
export function sharedStore(memory: MemoryStore): { store: MemoryStore; wakeups(): StoreWakeups } {
  let heard: StoreWakeups | null = null;
  const store = new Proxy(memory, {
    get(target, property) {
      if (property === "shared") return true;
      if (property === "listen")
        return async (wakeups: StoreWakeups) => {
          heard = wakeups;
          return async () => {};
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    store,
    wakeups() {
      if (!heard) throw new Error("the service has not listened to the store yet");
      return heard;
    },
  };
}
