import { describe, expect, it } from "vitest";
import { RateLimitError, SocialPublishClient } from "../../src/client/index.ts";
import { silentLogger } from "../../src/logger.ts";
import { provisionUser } from "../../src/provision.ts";
import { createService } from "../../src/service/create-service.ts";
import { MemoryStore } from "../../src/store/memory.ts";
import { FakeClock } from "../../src/testing/fake-clock.ts";
import { describeClientAgainstService } from "./helpers/client-suite.ts";

describeClientAgainstService("in-process fetch", async () => {
  const store = new MemoryStore();
  const clock = new FakeClock();
  // Webhook endpoints on 127.0.0.1 are allowed, as the local quickstart allows them.
  const service = createService({ store, clock, logger: silentLogger, allowPrivateWebhookUrls: true });
  await service.start();
  return {
    store,
    clock,
    client: (apiKey) =>
      new SocialPublishClient({
        apiKey,
        baseUrl: "http://localhost/api/v1",
        fetch: service.fetch,
        maxRetries: 0,
      }),
    close: async () => {
      await service.close();
      await store.close();
    },
  };
});

describe("client against the service's rate limit", () => {
  it("throws RateLimitError with the service's Retry-After when the wait is beyond the client's cap", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    const service = createService({
      store,
      clock,
      logger: silentLogger,
      rateLimit: { limit: 2, windowMs: 60_000 },
    });
    const { apiKey } = await provisionUser(store, { accounts: ["x"], now: clock.now() });
    const api = new SocialPublishClient({
      apiKey,
      baseUrl: "http://localhost/api/v1",
      fetch: service.fetch,
      retry: { maxRetryAfterMs: 0 },
    });
    await api.me();
    await api.me();
    const error = await api.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(0);
    expect((error as RateLimitError).retryAfter).toBeLessThanOrEqual(60);
    expect((error as RateLimitError).headers.get("ratelimit-policy")).toBeTruthy();
    await store.close();
  });
});

describe("client retries against the service", () => {
  it("a create whose answer was lost is retried with the same key and replayed: one post, not two", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    const service = createService({ store, clock, logger: silentLogger });
    const { apiKey, user } = await provisionUser(store, { accounts: ["x"], now: clock.now() });
    let lost = 0;
    // The service handles the first request, then the connection drops before the answer arrives.
    const lossyFetch = async (request: Request) => {
      const response = await service.fetch(request);
      if (lost++ === 0) throw new TypeError("fetch failed: socket hang up");
      return response;
    };
    const api = new SocialPublishClient({
      apiKey,
      baseUrl: "http://localhost/api/v1",
      fetch: lossyFetch,
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
    });
    const post = await api.posts.create({ caption: "Once", platforms: ["x"] });
    expect(lost).toBe(2);
    const stored = await store.listPosts(user.id, { limit: 10 });
    expect(stored.map((p) => p.id)).toEqual([post.id]);
    await store.close();
  });
});
