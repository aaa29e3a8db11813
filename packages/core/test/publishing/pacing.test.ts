import { afterEach, describe, expect, it } from "vitest";
import { type FakeClock, SAMPLE_PNG } from "../../src/testing/index.ts";
import { connectedUser, type LiveService, liveService, targetsOf } from "./helpers/live-service.ts";
import { ScriptedAdapter } from "./helpers/scripted-adapter.ts";

/*
 * Pacing is per account: each user's account on a network has the network's own allowance, and work
 * beyond it waits for its slot (scheduled posts, retries) without holding back anyone else's.
 */

const OTHER_KEY = `sp_live_${"AnotherLiveUserOfTheSameNetwork0".repeat(2)}`;
let live: (LiveService & { adapters: ScriptedAdapter[] }) | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

describe("pacing per account", () => {
  it("one account's used allowance does not hold back another account on the same network", async () => {
    live = await liveService((clock) => [
      new ScriptedAdapter("telegram", clock, { pacing: [{ count: 1, windowMs: 60_000 }] }),
    ]);
    const { user, clock, service, store } = live;
    const [telegram] = live.adapters as [ScriptedAdapter];
    const other = await connectedUser(
      { fetch: service.fetch, store, clock, close: async () => {} },
      OTHER_KEY,
      live.adapters,
    );
    expect((await user.post("/posts", { caption: "a1", platforms: ["telegram"] })).body.status).toBe(
      "published",
    );
    // The same network, another account: its own allowance.
    expect((await other.post("/posts", { caption: "b1", platforms: ["telegram"] })).body.status).toBe(
      "published",
    );
    // Each account's second post now is beyond its own allowance.
    expect((await user.post("/posts", { caption: "a2", platforms: ["telegram"] })).status).toBe(400);
    expect((await other.post("/posts", { caption: "b2", platforms: ["telegram"] })).status).toBe(400);
    expect(telegram.publishes.map((p) => p.post.text)).toEqual(["a1", "b1"]);
  });

  it("scheduled work beyond the allowance waits for its slot, and retries count against it", async () => {
    live = await liveService((clock) => [
      new ScriptedAdapter("telegram", clock, { pacing: [{ count: 2, windowMs: 10 * 60_000 }] }),
    ]);
    const { user, clock } = live;
    const [telegram] = live.adapters as [ScriptedAdapter];
    const start = clock.now();
    telegram.script.push(telegram.failure("retry", "busy"));
    const a = await user.createPost({ caption: "a", platforms: ["telegram"] });
    expect((await targetsOf(user, a.id)).telegram.status).toBe("pending");
    await clock.advance(10_000);
    await user.createPost({ caption: "b", platforms: ["telegram"] });
    // The account's 2 posts in 10 minutes are used: c, due at 20 s, waits.
    const c = await user.createPost({
      caption: "c",
      platforms: ["telegram"],
      schedule_at: new Date(start + 20_000).toISOString(),
    });
    await clock.advance(10_000);
    expect((await targetsOf(user, c.id)).telegram.status).toBe("pending");
    // a's retry (after 1 minute) takes the slot b's window leaves it, which moves c's slot on again.
    await clock.set(start + 10 * 60_000 + 9_999);
    expect(telegram.publishes.map((p) => [p.post.text, (p.at - start) / 1000])).toEqual([
      ["a", 0],
      ["b", 10],
      ["a", 60],
    ]);
    await clock.advance(1);
    expect(telegram.publishes.at(-1)).toMatchObject({ post: { text: "c" }, at: start + 610_000 });
    expect((await targetsOf(user, a.id)).telegram.status).toBe("published");
    expect((await targetsOf(user, c.id)).telegram.status).toBe("published");
  });
  it("held-back posts of one account that fall due together take the free slots one at a time", async () => {
    // One post per minute. Four scheduled for one instant: the first goes, the other three are held
    // back to the same slot, and the retry worker claims them together when it comes.
    live = await liveService((clock) => [
      new ScriptedAdapter("telegram", clock, { pacing: [{ count: 1, windowMs: 60_000 }] }),
    ]);
    const { user, clock } = live;
    const [telegram] = live.adapters as [ScriptedAdapter];
    const start = clock.now();
    const due = new Date(start + 10_000).toISOString();
    for (const caption of ["a", "b", "c", "d"]) {
      await user.createPost({ caption, platforms: ["telegram"], schedule_at: due });
    }
    await clock.set(start + 10_000);
    expect(telegram.publishes.map((p) => (p.at - start) / 1000)).toEqual([10]);
    // The slot at 70 s is one: one post takes it, the others wait for the next ones.
    await clock.set(start + 70_000);
    expect(telegram.publishes.map((p) => (p.at - start) / 1000)).toEqual([10, 70]);
    await clock.set(start + 200_000);
    expect(telegram.publishes.map((p) => (p.at - start) / 1000)).toEqual([10, 70, 130, 190]);
    expect(telegram.publishes.map((p) => p.post.text).sort()).toEqual(["a", "b", "c", "d"]);
  });
  it("a request sent later than its pacing check still keeps the pace: an attempt counts from when it ended", async () => {
    // One post per 10 s. The first post's media takes 3 s to fetch, between its attempt's start and
    // its request: counted from its start, the next request could follow it 7 s later.
    let clock!: FakeClock;
    live = await liveService(
      (c) => {
        clock = c;
        return [new ScriptedAdapter("telegram", c, { pacing: [{ count: 1, windowMs: 10_000 }] })];
      },
      {
        service: {
          lookupHost: async () => ["93.184.216.34"],
          mediaFetch: async () => {
            await clock.advance(3_000);
            return new Response(SAMPLE_PNG, { headers: { "content-type": "image/png" } });
          },
        },
      },
    );
    const { user } = live;
    const [telegram] = live.adapters as [ScriptedAdapter];
    const start = clock.now();
    const due = new Date(start + 10_000).toISOString();
    await user.createPost({
      caption: "with a picture",
      platforms: ["telegram"],
      media: "https://media.example/picture.png",
      schedule_at: due,
    });
    await user.createPost({ caption: "text only", platforms: ["telegram"], schedule_at: due });
    await clock.set(start + 30_000);
    expect(telegram.publishes.map((p) => [p.post.text, (p.at - start) / 1000])).toEqual([
      ["with a picture", 13],
      ["text only", 23],
    ]);
  });
});
