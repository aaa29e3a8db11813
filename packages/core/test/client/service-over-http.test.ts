import { SocialPublishClient } from "../../src/client/index.ts";
import { silentLogger } from "../../src/logger.ts";
import { createService } from "../../src/service/create-service.ts";
import { MemoryStore } from "../../src/store/memory.ts";
import { FakeClock } from "../../src/testing/fake-clock.ts";
import { describeClientAgainstService } from "./helpers/client-suite.ts";
import { serveOverHttp } from "./helpers/http-bridge.ts";

// The whole suite over real HTTP, once per address form the contract names: every operation, and every
// page a Link header leads to, under /api/v1 and again under /v1.
for (const [label, prefix] of [
  ["HTTP on port 0, undici transport", "/api/v1"],
  ["HTTP on port 0, base URL ending in /v1", "/v1"],
] as const) {
  describeClientAgainstService(label, async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    // Webhook endpoints on 127.0.0.1 are allowed, as the local quickstart allows them.
    const service = createService({ store, clock, logger: silentLogger, allowPrivateWebhookUrls: true });
    await service.start();
    const http = await serveOverHttp(service.fetch);
    return {
      store,
      clock,
      client: (apiKey) =>
        new SocialPublishClient({ apiKey, baseUrl: `${http.origin}${prefix}`, maxRetries: 0 }),
      close: async () => {
        await http.close();
        await service.close();
        await store.close();
      },
    };
  });
}
