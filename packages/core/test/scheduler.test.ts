import { describe, expect, it, vi } from "vitest";
import { type Logger, silentLogger } from "../src/logger.ts";
import { Scheduler } from "../src/scheduler/scheduler.ts";
import { createService } from "../src/service/create-service.ts";
import { MemoryStore } from "../src/store/memory.ts";
import type { Store } from "../src/store/types.ts";
import { FakeClock, provisionUser } from "../src/testing/index.ts";
import { MAX_TIMER_DELAY_MS } from "../src/time/clock.ts";

const DAY = 86_400_000;

async function setup(store: Store = new MemoryStore(), logger: Logger = silentLogger) {
  const clock = new FakeClock();
  const { apiKey, user } = await provisionUser(store, { plan: "creator", accounts: ["x"], now: clock.now() });
  const service = createService({ store, clock, logger });
  const call = (method: string, path: string, body?: unknown) =>
    service
      .fetch(
        new Request(`http://localhost/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      )
      .then((r) => r.json());
  return { store, clock, service, call, user };
}

describe("scheduler", () => {
  it("keeps one timer, set for the next due post, not a poll", async () => {
    const { clock, service, call } = await setup();
    await service.start();
    // The only other timer is the one for the daily analytics event.
    const others = clock.pendingTimers;
    expect(service.scheduler.nextRunAt).toBeNull();
    await call("POST", "/posts", { caption: "a", platforms: ["x"], schedule_at: clock.now() + 3_600_000 });
    await call("POST", "/posts", { caption: "b", platforms: ["x"], schedule_at: clock.now() + 60_000 });
    expect(clock.pendingTimers).toBe(others + 1);
    expect(clock.nextTimerAt).toBe(clock.now() + 60_000);
    expect(service.scheduler.nextRunAt).toBe(clock.now() + 60_000);
    await clock.advance(60_000);
    expect(clock.pendingTimers).toBe(others + 1);
    expect(service.scheduler.nextRunAt).toBe(clock.now() + 3_600_000 - 60_000);
    await service.close();
    expect(clock.pendingTimers).toBe(0);
  });

  it("waits in steps no longer than the platform's timer limit for a post far ahead", async () => {
    const { clock, call, store, service } = await setup();
    // The scheduler alone first, so its timer is the only one on the clock.
    const scheduler = new Scheduler({ store, clock, logger: silentLogger, publish: async () => {} });
    await scheduler.start();
    const due = clock.now() + 60 * DAY;
    const post = await call("POST", "/posts", { caption: "far", platforms: ["x"], schedule_at: due });
    await scheduler.rearm();
    expect(clock.pendingTimers).toBe(1);
    expect(clock.nextTimerAt).toBe(clock.now() + MAX_TIMER_DELAY_MS);
    await scheduler.stop();

    await service.start();
    await clock.advance(MAX_TIMER_DELAY_MS);
    expect((await call("GET", `/posts/${post.id}`)).status).toBe("scheduled");
    await clock.advance(due - clock.now());
    expect((await call("GET", `/posts/${post.id}`)).status).toBe("published");
    await service.close();
  });

  it("a post that fell due while the service was stopped publishes right after it starts, once", async () => {
    const { store, clock, service, call, user } = await setup();
    await service.start();
    const post = await call("POST", "/posts", {
      caption: "missed",
      platforms: ["x"],
      schedule_at: clock.now() + 60_000,
    });
    await service.close();
    await clock.advance(DAY);
    expect((await call("GET", `/posts/${post.id}`)).status).toBe("scheduled");

    const restarted = createService({ store, clock, logger: silentLogger });
    await restarted.start();
    await clock.advance(0);
    expect(await call("GET", `/posts/${post.id}`)).toMatchObject({
      status: "published",
      published_at: clock.now(),
    });
    await clock.advance(DAY);
    const published = (await store.listEvents(user.id)).filter((e) => e.type === "post.published");
    expect(published).toHaveLength(1);
    await restarted.close();
  });

  it("a post left in publishing by a crash is released on start and published once", async () => {
    const { store, clock, service, call, user } = await setup();
    await service.start();
    const post = await call("POST", "/posts", {
      caption: "crash",
      platforms: ["x"],
      schedule_at: clock.now() + 1000,
    });
    // A scheduler claimed it and the process died before completing.
    await store.claimDuePosts(clock.now() + 1000, 10);
    await service.close();
    await clock.advance(5000);
    const restarted = createService({ store, clock, logger: silentLogger });
    await restarted.start();
    await clock.advance(0);
    expect((await call("GET", `/posts/${post.id}`)).status).toBe("published");
    expect((await store.listEvents(user.id)).filter((e) => e.type === "post.published")).toHaveLength(1);
    await restarted.close();
  });

  it("a sandbox post whose outcome a crash kept from being written is published again at restart, one attempt per network", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    const { apiKey, user } = await provisionUser(store, {
      plan: "creator",
      accounts: ["x", "bluesky"],
      now: clock.now(),
    });
    // The process dies while the networks' outcomes are being written: that write never lands.
    let cutOff = false;
    const dying = new Proxy(store, {
      get(target, name, receiver) {
        if (name === "finishTargets") {
          return async () => {
            cutOff = true;
            return new Promise(() => {});
          };
        }
        const value = Reflect.get(target, name, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const service = createService({ store: dying, clock, logger: silentLogger });
    await service.start();
    const created = await service.fetch(
      new Request("http://localhost/api/v1/posts", {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({
          caption: "cut off",
          platforms: ["x", "bluesky"],
          schedule_at: clock.now() + 1000,
        }),
      }),
    );
    const { id } = (await created.json()) as { id: string };
    void clock.advance(1000);
    await vi.waitFor(() => expect(cutOff).toBe(true));
    expect((await store.getPost(user.id, id))!.status).toBe("publishing");

    const restarted = createService({ store, clock, logger: silentLogger });
    await restarted.start();
    await clock.advance(0);
    expect((await store.getPost(user.id, id))!.status).toBe("published");
    const targets = await store.getTargets(id);
    expect(targets.map((t) => [t.platform, t.status, t.attempts, t.in_flight, t.outcome_unknown])).toEqual([
      ["x", "published", 1, false, false],
      ["bluesky", "published", 1, false, false],
    ]);
    const published = (await store.listEvents(user.id)).filter((e) => e.type === "post.published");
    expect(published.map((e) => (e.data as { platform: string }).platform).sort()).toEqual(["bluesky", "x"]);
    await restarted.close();
  });

  it("two services sharing a store publish a due post once", async () => {
    const { store, clock, service, call, user } = await setup();
    const other = createService({ store, clock, logger: silentLogger });
    await service.start();
    await other.start();
    const post = await call("POST", "/posts", {
      caption: "shared",
      platforms: ["x"],
      schedule_at: clock.now() + 1000,
    });
    await other.scheduler.rearm();
    await clock.advance(1000);
    expect((await call("GET", `/posts/${post.id}`)).status).toBe("published");
    expect((await store.listEvents(user.id)).filter((e) => e.type === "post.published")).toHaveLength(1);
    await service.close();
    await other.close();
  });

  it("when the store fails, the run is logged and retried later; nothing is lost", async () => {
    const store = new MemoryStore();
    const errors: string[] = [];
    const logger: Logger = { ...silentLogger, error: (_fields, message) => errors.push(message) };
    const { clock, service, call } = await setup(store, logger);
    await service.start();
    const post = await call("POST", "/posts", {
      caption: "flaky",
      platforms: ["x"],
      schedule_at: clock.now() + 1000,
    });
    const claim = store.claimDuePosts.bind(store);
    let failures = 1;
    store.claimDuePosts = async (now, limit) => {
      if (failures-- > 0) throw new Error("database is locked");
      return claim(now, limit);
    };
    await clock.advance(1000);
    expect(errors).toEqual(["scheduler run failed; retrying"]);
    expect((await call("GET", `/posts/${post.id}`)).status).toBe("scheduled");
    await clock.advance(5000);
    expect((await call("GET", `/posts/${post.id}`)).status).toBe("published");
    await service.close();
  });
});
