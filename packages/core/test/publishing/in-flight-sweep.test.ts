import { afterEach, describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/store/memory.ts";
import { failingStore } from "./helpers/failing-store.ts";
import { type LiveService, liveService, targetsOf } from "./helpers/live-service.ts";
import { ScriptedAdapter } from "./helpers/scripted-adapter.ts";
import { sharedStore } from "./helpers/shared-store.ts";

/*
 * An attempt whose outcome could not be written (the store failed twice in a row) stays marked in
 * flight. A running server recovers it once the attempt's lease runs out, with the never-twice rule:
 * the network is asked whether the post is there, and where it cannot say, the target fails as
 * "outcome unknown" — it is never sent again.
 */

const LEASE = 600_000;
let live: (LiveService & { adapters: ScriptedAdapter[] }) | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

async function publishWhileWritesFail(withFind: boolean) {
  const memory = new MemoryStore();
  const failing = failingStore(memory);
  live = await liveService((clock) => [new ScriptedAdapter("telegram", clock, { withFind })], {
    store: failing.store,
  });
  const { user, clock } = live;
  const [telegram] = live.adapters as [ScriptedAdapter];
  failing.failNext("finishTargets", 2);
  const res = await user.post("/posts", { caption: "hello", platforms: ["telegram"] });
  expect(res.status).toBe(503);
  expect(failing.failed.get("finishTargets")).toBe(2);
  expect(telegram.publishes).toHaveLength(1);
  const postId = (await user.get("/posts")).body.data[0].id as string;
  // The scheduler takes the handed-over post again a few seconds later; the target is still in flight.
  await clock.advance(10_000);
  expect((await memory.getTargets(postId))[0]).toMatchObject({ in_flight: true, status: "pending" });
  return { user, clock, telegram, postId, memory };
}

describe("attempts left in flight by failed writes, while the server runs", () => {
  it("are checked with the network once their lease ends: found there → published, never sent again", async () => {
    const { user, clock, telegram, postId, memory } = await publishWhileWritesFail(true);
    await clock.advance(LEASE - 20_000);
    expect((await memory.getTargets(postId))[0]!.in_flight).toBe(true);
    await clock.advance(20_000);
    const target = (await targetsOf(user, postId)).telegram;
    expect(target).toMatchObject({ status: "published", error: null });
    expect(target.permalink).toBe(telegram.posted(telegram.publishes[0]!.post.key).permalink);
    expect(telegram.finds).toHaveLength(1);
    expect(telegram.publishes).toHaveLength(1);
    expect((await user.get(`/posts/${postId}`)).body.status).toBe("published");
    const events = (await memory.listEvents(user.id)).filter((e) => e.type === "post.published");
    expect(events).toHaveLength(1);
  });

  it("where the network cannot say, fail as outcome unknown instead of posting again", async () => {
    const { user, clock, telegram, postId } = await publishWhileWritesFail(false);
    await clock.advance(LEASE);
    const target = (await targetsOf(user, postId)).telegram;
    expect(target.status).toBe("failed");
    expect(target.error).toMatch(/outcome unknown: check the network/);
    expect(telegram.publishes).toHaveLength(1);
    expect((await user.get(`/posts/${postId}`)).body.status).toBe("draft");
  });

  it("where the account needs reconnecting before the network can say, fail as outcome unknown, never 'publish again'", async () => {
    const { user, clock, telegram, postId } = await publishWhileWritesFail(true);
    telegram.findPublished = async () => {
      throw telegram.failure("reauth", "the token was revoked");
    };
    await clock.advance(LEASE);
    const target = (await targetsOf(user, postId)).telegram;
    expect(target.status).toBe("failed");
    expect(target.error).toMatch(
      /outcome unknown: check the network \(Telegram: the token was revoked; reconnect/,
    );
    expect(target.error).not.toMatch(/then publish the post again/);
    expect(telegram.publishes).toHaveLength(1);
    const accounts = (await user.get("/accounts")).body.data as { platform: string; health: string }[];
    expect(accounts.find((a) => a.platform === "telegram")?.health).toBe("reauth_required");
  });

  it("a retry whose outcome cannot be written is recovered the same way", async () => {
    const memory = new MemoryStore();
    const failing = failingStore(memory);
    live = await liveService((clock) => [new ScriptedAdapter("telegram", clock)], { store: failing.store });
    const { user, clock } = live;
    const [telegram] = live.adapters as [ScriptedAdapter];
    telegram.script.push(telegram.failure("retry", "too many requests", 30_000));
    const post = await user.createPost({ caption: "later", platforms: ["telegram"] });
    expect((await targetsOf(user, post.id)).telegram.status).toBe("pending");
    // The retry worker's write of what the retry did fails: the target stays in flight.
    failing.failNext("finishTargets", 1);
    await clock.advance(60_000);
    expect(telegram.publishes).toHaveLength(2);
    await clock.advance(10_000);
    expect((await memory.getTargets(post.id))[0]!.in_flight).toBe(true);
    await clock.advance(LEASE);
    expect((await targetsOf(user, post.id)).telegram.status).toBe("published");
    expect(telegram.publishes).toHaveLength(2);
    expect(telegram.finds).toHaveLength(1);
  });
});

describe("attempts another instance left in flight, on a shared store", () => {
  it("are recovered by a running instance once their lease ends, without a restart", async () => {
    const memory = new MemoryStore();
    const shared = sharedStore(memory);
    live = await liveService((clock) => [new ScriptedAdapter("telegram", clock, { withFind: true })], {
      store: shared.store,
    });
    const { user, clock } = live;
    const [telegram] = live.adapters as [ScriptedAdapter];
    telegram.script.push(telegram.failure("retry", "too many requests", 30_000));
    const post = await user.createPost({ caption: "later", platforms: ["telegram"] });
    const due = (await memory.getTargets(post.id))[0]!.next_attempt_at!;
    expect(due).toBeGreaterThan(clock.now());
    // Another instance claims the retry, says so, and dies making it.
    expect(await memory.claimDueTargets(due, 10)).toHaveLength(1);
    shared.wakeups().attemptStarted?.(due);
    await clock.advance(due - clock.now() + LEASE - 1_000);
    expect((await memory.getTargets(post.id))[0]!.in_flight).toBe(true);
    await clock.advance(2_000);
    expect((await targetsOf(user, post.id)).telegram.status).toBe("published");
    expect((await memory.getTargets(post.id))[0]!.in_flight).toBe(false);
    // Asked first (nothing was there), then sent once.
    expect(telegram.finds).toHaveLength(1);
    expect(telegram.publishes).toHaveLength(2);
  });
});

describe("an outcome whose write comes late, after the sweep and the network settled the target", () => {
  it("is not written: the network is announced once, with what the network said", async () => {
    const memory = new MemoryStore();
    const shared = sharedStore(memory);
    const stalled = failingStore(shared.store);
    live = await liveService((clock) => [new ScriptedAdapter("telegram", clock, { withFind: true })], {
      store: stalled.store,
    });
    const { user, clock } = live;
    const [telegram] = live.adapters as [ScriptedAdapter];
    // The attempt is made, and the write of what it came to waits on a database that went away.
    const write = stalled.holdNext("finishTargets");
    const answering = user.post("/posts", { caption: "hello", platforms: ["telegram"] });
    await write.reached;
    expect(telegram.publishes).toHaveLength(1);
    const postId = (await memory.listPosts(user.id, { limit: 1 }))[0]!.id;
    expect((await memory.getTargets(postId))[0]).toMatchObject({ in_flight: true, status: "pending" });
    // A sweep a lease later (here armed by another instance's wake-up) takes the attempt as cut off; the
    // network, asked, has the post: the target is published and announced.
    shared.wakeups().attemptStarted?.(clock.now());
    await clock.advance(LEASE + 1_000);
    expect((await memory.getTargets(postId))[0]).toMatchObject({ status: "published", in_flight: false });
    expect(telegram.finds).toHaveLength(1);
    // Then the stalled write goes through: it does not write over the settled target, nor announce it.
    write.release();
    expect((await answering).status).toBe(201);
    const published = (await memory.listEvents(user.id)).filter((e) => e.type === "post.published");
    expect(published).toHaveLength(1);
    expect(telegram.publishes).toHaveLength(1);
    expect((await targetsOf(user, postId)).telegram.permalink).toBe(
      telegram.posted(telegram.publishes[0]!.post.key).permalink,
    );
  });
});
