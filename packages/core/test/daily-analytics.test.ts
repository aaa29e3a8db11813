import { describe, expect, it } from "vitest";
import { Analytics } from "../src/contract/resources.ts";
import { createService } from "../src/service/create-service.ts";
import { silentLogger } from "../src/service/logger.ts";
import { MemoryStore } from "../src/store/memory.ts";
import { FakeClock, provisionUser } from "../src/testing/index.ts";

const DAY = 86_400_000;

describe("analytics.daily", () => {
  it("when a UTC day ends, users subscribed to analytics.daily get the summary as it stood, with the day's date", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock(Date.UTC(2026, 5, 15, 12));
    const subscribed = await provisionUser(store, {
      accounts: [{ platform: "x", followers: 40 }],
      now: clock.now(),
    });
    const other = await provisionUser(store, { accounts: ["x"], now: clock.now() });
    const service = createService({ store, clock, logger: silentLogger, allowPrivateWebhookUrls: true });
    await service.start();
    const call = (key: string, method: string, path: string, body?: unknown) =>
      service
        .fetch(
          new Request(`http://localhost/api/v1${path}`, {
            method,
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        )
        .then((r) => r.json());
    await call(subscribed.apiKey, "POST", "/webhooks", {
      url: "http://127.0.0.1:9/hook",
      events: ["analytics.daily"],
    });
    await call(other.apiKey, "POST", "/webhooks", {
      url: "http://127.0.0.1:9/hook",
      events: ["post.published"],
    });
    const post = await call(subscribed.apiKey, "POST", "/posts", { caption: "hi", platforms: ["x"] });
    await call(subscribed.apiKey, "POST", "/sandbox/metrics", {
      post_id: post.id,
      platform: "x",
      reach: 50,
      likes: 5,
    });

    await clock.advance((12 * DAY) / 24 - 1);
    expect((await store.listEvents(subscribed.user.id)).filter((e) => e.type === "analytics.daily")).toEqual(
      [],
    );
    await clock.advance(1);
    const [event] = (await store.listEvents(subscribed.user.id)).filter((e) => e.type === "analytics.daily");
    expect(event).toMatchObject({ created: Date.UTC(2026, 5, 16) / 1000 });
    expect(event!.data).toEqual({
      totalReach: 50,
      engagementRate: 10,
      postsPublished: 1,
      followers: 40,
      perPlatform: [{ platform: "x", reach: 50, engagementRate: 10 }],
      date: "2026-06-15",
    });
    expect(Analytics.extend({}).parse(event!.data)).toBeDefined();
    expect((await store.listEvents(other.user.id)).filter((e) => e.type === "analytics.daily")).toEqual([]);

    await clock.advance(DAY);
    const days = (await store.listEvents(subscribed.user.id))
      .filter((e) => e.type === "analytics.daily")
      .map((e) => (e.data as { date: string }).date);
    expect(days).toEqual(["2026-06-15", "2026-06-16"]);
    await service.close();
    expect(clock.pendingTimers).toBe(0);
  });
});
