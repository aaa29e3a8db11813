import { setImmediate as nextTurn } from "node:timers/promises";
import { createService } from "../src/index.ts";
import { silentLogger } from "../src/logger.ts";
import { MemoryStore } from "../src/store/memory.ts";
import type { Store } from "../src/store/types.ts";
import { describeServiceConformance, FakeClock } from "../src/testing/index.ts";

/**
 * A store whose every call first gives the event loop a turn, as a store across a network does. With
 * the in-memory and SQLite stores a rule's read and write follow each other without a gap, so races
 * between concurrent requests hide; here they show, and the suite proves the service closes them.
 */
function yieldingStore(store: Store): Store {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        await nextTurn();
        return value.apply(target, args);
      };
    },
  });
}

describeServiceConformance("memory store behind a network-like delay, in-process", async () => {
  const memory = new MemoryStore();
  const store = yieldingStore(memory);
  const clock = new FakeClock();
  const service = createService({ store, clock, logger: silentLogger, allowPrivateWebhookUrls: true });
  await service.start();
  return {
    fetch: (request) => service.fetch(request),
    store,
    clock,
    close: async () => {
      await service.close();
      await memory.close();
    },
  };
});
