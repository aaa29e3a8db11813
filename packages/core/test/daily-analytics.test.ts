import { describe, expect, it, vi } from "vitest";
import { Analytics } from "../src/contract/resources.ts";
import { silentLogger } from "../src/logger.ts";
import { ANALYTICS_CATCH_UP_DAYS } from "../src/scheduler/daily-analytics.ts";
import { createService } from "../src/service/create-service.ts";
import { MemoryStore } from "../src/store/memory.ts";
import type { Store } from "../src/store/types.ts";
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

  /** A user subscribed to analytics.daily through the service, created at the clock's time. */
  async function subscribedUser(store: Store, clock: FakeClock) {
    const user = await provisionUser(store, { accounts: ["x"], now: clock.now() });
    const service = createService({ store, clock, logger: silentLogger, allowPrivateWebhookUrls: true });
    const res = await service.fetch(
      new Request("http://localhost/api/v1/webhooks", {
        method: "POST",
        headers: { authorization: `Bearer ${user.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ url: "http://127.0.0.1:9/hook", events: ["analytics.daily"] }),
      }),
    );
    expect(res.status).toBe(201);
    return user.user;
  }

  const dailyDates = async (store: Store, userId: string) =>
    (await store.listEvents(userId))
      .filter((e) => e.type === "analytics.daily")
      .map((e) => (e.data as { date: string }).date);

  it("days that ended while the service was stopped get their event when it starts again, once", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock(Date.UTC(2026, 5, 15, 12));
    const user = await subscribedUser(store, clock);
    const first = createService({ store, clock, logger: silentLogger });
    await first.start();
    await clock.advance(DAY);
    expect(await dailyDates(store, user.id)).toEqual(["2026-06-15"]);
    await first.close();

    // Down over three midnights: nothing runs.
    await clock.advance(3 * DAY);
    expect(await dailyDates(store, user.id)).toEqual(["2026-06-15"]);
    const second = createService({ store, clock, logger: silentLogger });
    await second.start();
    expect(await dailyDates(store, user.id)).toEqual([
      "2026-06-15",
      "2026-06-16",
      "2026-06-17",
      "2026-06-18",
    ]);
    await second.close();

    // A restart on the same day writes nothing more; the next midnight writes its day only.
    const third = createService({ store, clock, logger: silentLogger });
    await third.start();
    await clock.advance(DAY);
    expect(await dailyDates(store, user.id)).toEqual([
      "2026-06-15",
      "2026-06-16",
      "2026-06-17",
      "2026-06-18",
      "2026-06-19",
    ]);
    await third.close();
  });

  it(`after a longer stop, only the last ${ANALYTICS_CATCH_UP_DAYS} days are caught up`, async () => {
    const store = new MemoryStore();
    const clock = new FakeClock(Date.UTC(2026, 5, 1, 12));
    const user = await subscribedUser(store, clock);
    await clock.advance(20 * DAY);
    const service = createService({ store, clock, logger: silentLogger });
    await service.start();
    expect(await dailyDates(store, user.id)).toEqual([
      "2026-06-14",
      "2026-06-15",
      "2026-06-16",
      "2026-06-17",
      "2026-06-18",
      "2026-06-19",
      "2026-06-20",
    ]);
    await service.close();
  });

  it("a crash in the middle of the users loses no one's event and writes no one's twice", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock(Date.UTC(2026, 5, 15, 12));
    const users = [
      await subscribedUser(store, clock),
      await subscribedUser(store, clock),
      await subscribedUser(store, clock),
    ];
    // The process dies while writing the second user's event: that write fails, and every later one
    // never happens.
    let crashed = false;
    const crashing = new Proxy(store, {
      get(target, name, receiver) {
        if (name === "settleAnalyticsDay" && !crashed) {
          return async (userId: string, ...rest: [string, never[]]) => {
            if (userId === users[1]!.id) {
              crashed = true;
              throw new Error("killed");
            }
            return target.settleAnalyticsDay(userId, ...rest);
          };
        }
        if (crashed && name === "settleAnalyticsDay") return async () => new Promise(() => {});
        const value = Reflect.get(target, name, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const dying = createService({ store: crashing, clock, logger: silentLogger });
    await dying.start();
    void clock.advance(DAY); // the midnight run, which never ends: its process is dead
    await vi.waitFor(() => expect(crashed).toBe(true));
    expect(await Promise.all(users.map((u) => dailyDates(store, u.id)))).toEqual([["2026-06-15"], [], []]);

    // A new process on the same store, later that day.
    const clock2 = new FakeClock(clock.now() + 3_600_000);
    const restarted = createService({ store, clock: clock2, logger: silentLogger });
    await restarted.start();
    expect(await Promise.all(users.map((u) => dailyDates(store, u.id)))).toEqual([
      ["2026-06-15"],
      ["2026-06-15"],
      ["2026-06-15"],
    ]);
    await restarted.close();
  });
});
