import { afterEach, describe, expect, it } from "vitest";
import type { PublishInput } from "../../src/networks/adapter.ts";
import { MemoryStore } from "../../src/store/memory.ts";
import { failingStore } from "./helpers/failing-store.ts";
import { type LiveService, liveService, targetsOf } from "./helpers/live-service.ts";
import { ScriptedAdapter } from "./helpers/scripted-adapter.ts";

/*
 * A publish in several steps (a media container made, then published) saves its progress on the target
 * before it goes on. The next attempt, after a lost answer or a server that lost its write, is handed
 * that progress and resumes from it, even on a network that cannot look a post up by our key: the
 * container is what tells whether it went out, so it never goes out twice.
 */

const LEASE = 600_000;
let live: (LiveService & { adapters: ScriptedAdapter[] }) | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

/** Makes a container, saves it, then (in this step) sends the publish and gets no answer. */
function containerThenNoAnswer(adapter: ScriptedAdapter) {
  return async (post: PublishInput) => {
    await post.saveStep({ container: "c-17", made_at: 1 });
    throw adapter.failure("unknown", "no answer to media_publish");
  };
}

describe("a publish in several steps", () => {
  it("whose last step went unanswered resumes from the saved container instead of failing as unknown", async () => {
    live = await liveService((clock) => [new ScriptedAdapter("threads", clock, { withFind: false })]);
    const { user, clock, store } = live;
    const [threads] = live.adapters as [ScriptedAdapter];
    threads.script.push(containerThenNoAnswer(threads));
    const post = await user.createPost({ caption: "two steps", platforms: ["threads"] });
    const [stored] = await store.getTargets(post.id);
    expect(stored).toMatchObject({
      status: "pending",
      outcome_unknown: true,
      publish_step: JSON.stringify({ container: "c-17", made_at: 1 }),
    });
    expect(threads.publishes[0]!.post.step).toBeNull();

    await clock.advance(60_000);
    expect(threads.publishes).toHaveLength(2);
    expect(threads.publishes[1]!.post.step).toEqual({ container: "c-17", made_at: 1 });
    expect((await targetsOf(user, post.id)).threads).toMatchObject({ status: "published", error: null });
    expect((await store.getTargets(post.id))[0]!.publish_step).toBeNull();
  });

  it("without a saved step, the same lost answer fails as outcome unknown (nothing to resume from)", async () => {
    live = await liveService((clock) => [new ScriptedAdapter("threads", clock, { withFind: false })]);
    const { user } = live;
    const [threads] = live.adapters as [ScriptedAdapter];
    threads.script.push(threads.failure("unknown", "no answer"));
    const post = await user.createPost({ caption: "one step", platforms: ["threads"] });
    expect((await targetsOf(user, post.id)).threads.error).toMatch(/outcome unknown: check the network/);
    expect(threads.publishes).toHaveLength(1);
  });

  it("left in flight by a lost write resumes from its step once its lease ends", async () => {
    const memory = new MemoryStore();
    const failing = failingStore(memory);
    live = await liveService((clock) => [new ScriptedAdapter("threads", clock, { withFind: false })], {
      store: failing.store,
    });
    const { user, clock } = live;
    const [threads] = live.adapters as [ScriptedAdapter];
    threads.script.push(async (post) => {
      await post.saveStep({ container: "c-9" });
      return threads.posted(post.key);
    });
    failing.failNext("finishTargets", 2);
    expect((await user.post("/posts", { caption: "hello", platforms: ["threads"] })).status).toBe(503);
    const postId = (await user.get("/posts")).body.data[0].id as string;
    await clock.advance(10_000);
    expect((await memory.getTargets(postId))[0]).toMatchObject({
      in_flight: true,
      publish_step: '{"container":"c-9"}',
    });
    await clock.advance(LEASE);
    expect(threads.publishes).toHaveLength(2);
    expect(threads.publishes[1]!.post.step).toEqual({ container: "c-9" });
    expect((await targetsOf(user, postId)).threads.status).toBe("published");
  });
});
