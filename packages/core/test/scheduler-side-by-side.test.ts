import { describe, expect, it } from "vitest";
import { newId } from "../src/ids.ts";
import { silentLogger } from "../src/logger.ts";
import { LanePool } from "../src/scheduler/lane-pool.ts";
import { PUBLISH_CONCURRENCY, Scheduler } from "../src/scheduler/scheduler.ts";
import { MemoryStore } from "../src/store/memory.ts";
import type { KeyMode, PostRecord, Store } from "../src/store/types.ts";
import { FakeClock } from "../src/testing/index.ts";

/*
 * The scheduler publishes the posts of a claimed batch side by side, a bounded number at once, except
 * a live user's posts, which go one after the other (their pacing check reads the attempts already
 * started, so two side by side could both take an account's last slot).
 */

/** A publish that counts how many are in flight at once, per lane of the test's choosing. */
function countingPublish(laneOf: (post: PostRecord) => string = () => "all") {
  const inFlight = new Map<string, number>();
  const most = new Map<string, number>();
  const order: string[] = [];
  const publish = async (post: PostRecord) => {
    const lane = laneOf(post);
    const now = (inFlight.get(lane) ?? 0) + 1;
    inFlight.set(lane, now);
    most.set(lane, Math.max(most.get(lane) ?? 0, now));
    // Long enough for every other post that could start to start.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    order.push(post.caption);
    inFlight.set(lane, inFlight.get(lane)! - 1);
  };
  return { publish, most, order };
}

async function duePosts(store: MemoryStore, clock: FakeClock, users: string[], mode: KeyMode, count: number) {
  for (let i = 0; i < count; i++) {
    // A millisecond apart: the due order is the order made.
    await clock.advance(1);
    const at = clock.now();
    const post: PostRecord = {
      id: newId("post", at),
      user_id: users[i % users.length]!,
      mode,
      caption: `${mode} ${i}`,
      platforms: ["x"],
      status: "scheduled",
      media: null,
      scheduled_at: at,
      published_at: null,
      created_at: at,
    };
    await store.insertPost(post, []);
  }
}

describe("scheduler: a batch side by side", () => {
  it("publishes up to `concurrency` sandbox posts at once, each once", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    await duePosts(store, clock, ["usr_a"], "test", 30);
    const { publish, most, order } = countingPublish();
    const scheduler = new Scheduler({ store, clock, logger: silentLogger, publish, concurrency: 6 });
    await scheduler.runDue();
    expect(most.get("all")).toBe(6);
    expect(order).toHaveLength(30);
    expect(new Set(order).size).toBe(30);
  });

  it("publishes PUBLISH_CONCURRENCY (1,024) at once by default, on a store one process holds alone and on a shared one", async () => {
    expect(PUBLISH_CONCURRENCY).toBe(1024);
    for (const shared of [false, true]) {
      const store = new MemoryStore();
      const clock = new FakeClock();
      await duePosts(store, clock, ["usr_a"], "test", 1_500);
      // The same store, as a store several instances share (PostgreSQL) presents itself.
      const asShared: Store = Object.create(store, { shared: { value: true } });
      const used = shared ? asShared : store;
      const { publish, most, order } = countingPublish();
      const scheduler = new Scheduler({ store: used, clock, logger: silentLogger, publish });
      await scheduler.runDue();
      expect(most.get("all")).toBe(1024);
      expect(new Set(order).size).toBe(1_500);
    }
  });

  it("does not wait for the slowest post of a batch: a free slot takes the next claimed post at once", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    await duePosts(store, clock, ["usr_a"], "test", 8);
    let releaseSlow!: () => void;
    const slow = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    const order: string[] = [];
    const scheduler = new Scheduler({
      store,
      clock,
      logger: silentLogger,
      batchSize: 2,
      concurrency: 2,
      publish: async (post) => {
        if (post.caption === "test 0") await slow;
        order.push(post.caption);
      },
    });
    const run = scheduler.runDue();
    // The other seven go through the second slot while the first post still waits for its network.
    for (let i = 0; i < 50 && order.length < 7; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(["test 1", "test 2", "test 3", "test 4", "test 5", "test 6", "test 7"]);
    releaseSlow();
    await run;
    expect(order).toHaveLength(8);
  });

  it("holds no more than concurrency + batchSize claimed posts while they wait", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    await duePosts(store, clock, ["usr_a"], "test", 100);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const scheduler = new Scheduler({
      store,
      clock,
      logger: silentLogger,
      batchSize: 10,
      concurrency: 4,
      publish: () => gate,
    });
    const run = scheduler.runDue();
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    const publishing = await store.listPosts("usr_a", { statuses: ["publishing"], limit: 100 });
    expect(publishing.length).toBeLessThanOrEqual(14);
    expect(publishing.length).toBeGreaterThanOrEqual(4);
    release();
    await run;
  });

  it("publishes a live user's posts one after the other, in due order, beside other users'", async () => {
    const store = new MemoryStore();
    const clock = new FakeClock();
    await duePosts(store, clock, ["usr_a", "usr_b"], "live", 10);
    const { publish, most, order } = countingPublish((post) => post.user_id);
    const both = countingPublish();
    const scheduler = new Scheduler({
      store,
      clock,
      logger: silentLogger,
      publish: async (post) => {
        await Promise.all([publish(post), both.publish(post)]);
      },
      concurrency: 8,
    });
    await scheduler.runDue();
    expect(most.get("usr_a")).toBe(1);
    expect(most.get("usr_b")).toBe(1);
    // The two users' lanes ran at the same time.
    expect(both.most.get("all")).toBe(2);
    const ofA = order.filter((caption) => Number(caption.split(" ")[1]) % 2 === 0);
    expect(ofA).toEqual(["live 0", "live 2", "live 4", "live 6", "live 8"]);
  });
});

describe("LanePool", () => {
  it("runs every item once, with no more than the limit at once, a lane in its order", async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    const items = Array.from({ length: 25 }, (_, i) => i);
    const pool = new LanePool<number>(
      4,
      (i) => (i < 10 ? "first ten" : String(i)),
      async (i) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        done.push(i);
        running--;
      },
    );
    for (const item of items) pool.add(item);
    expect(pool.held).toBe(25);
    await pool.idle();
    expect(pool.held).toBe(0);
    expect(most).toBe(4);
    expect([...done].sort((a, b) => a - b)).toEqual(items);
    expect(done.filter((i) => i < 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("is idle at once with no items, and refuses a limit below 1", async () => {
    const pool = new LanePool<number>(8, String, async () => {});
    await pool.idle();
    expect(() => new LanePool<number>(0, String, async () => {})).toThrow(
      "a pool's limit must be 1 or more; it is 0",
    );
  });
});
