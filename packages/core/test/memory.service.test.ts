import { createService } from "../src/index.ts";
import { silentLogger } from "../src/logger.ts";
import { MemoryStore } from "../src/store/memory.ts";
import { describeServiceConformance, FakeClock } from "../src/testing/index.ts";

describeServiceConformance("memory store, in-process", async () => {
  const store = new MemoryStore();
  const clock = new FakeClock();
  const service = createService({ store, clock, logger: silentLogger, allowPrivateWebhookUrls: true });
  await service.start();
  return {
    fetch: (request) => service.fetch(request),
    store,
    clock,
    close: async () => {
      await service.close();
      await store.close();
    },
  };
});
