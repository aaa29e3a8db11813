import { afterEach, describe, expect, it } from "vitest";
import { type LiveService, liveService, targetsOf } from "./helpers/live-service.ts";
import { ScriptedAdapter } from "./helpers/scripted-adapter.ts";

/*
 * decisions.md, pacing: work beyond a network's per-account limits waits when it is scheduled, and a
 * publish-now beyond them is refused with 400 saying when it can go.
 */

let live: (LiveService & { adapters: ScriptedAdapter[] }) | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

const twoPerMinute = (clock: ConstructorParameters<typeof ScriptedAdapter>[1]) => [
  new ScriptedAdapter("telegram", clock, { pacing: [{ count: 2, windowMs: 60_000 }] }),
  new ScriptedAdapter("discord", clock),
];

describe("publish-now beyond a network's pacing", () => {
  it("is refused with 400 naming the network and when it can go; nothing is stored or sent", async () => {
    live = await liveService(twoPerMinute);
    const { user, clock } = live;
    const [telegram] = live.adapters as [ScriptedAdapter];
    const start = clock.now();
    for (const caption of ["one", "two"]) {
      const res = await user.post("/posts", { caption, platforms: ["telegram"] });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe("published");
      await clock.advance(10_000);
    }
    const before = (await user.get("/posts")).body.data.length;

    const refused = await user.post("/posts", { caption: "three", platforms: ["telegram", "discord"] });
    expect(refused.status).toBe(400);
    // The first of the two attempts in the window started at `start`: the slot frees a minute later.
    const at = new Date(start + 60_000).toISOString();
    expect(refused.body.error).toBe(
      `Telegram allows 2 posts per minute for one account and this account has used that: Telegram can publish again at ${at} (in 40 s). Publish it then, or schedule it for then or later (schedule_at); a scheduled post waits for its slot.`,
    );
    expect(telegram.publishes).toHaveLength(2);
    expect(live.adapters[1]!.publishes).toHaveLength(0);
    expect((await user.get("/posts")).body.data).toHaveLength(before);

    // A network without pacing still publishes now; and at the time said, Telegram does too.
    expect((await user.post("/posts", { caption: "elsewhere", platforms: ["discord"] })).status).toBe(201);
    await clock.set(start + 60_000);
    const later = await user.post("/posts", { caption: "three", platforms: ["telegram"] });
    expect(later.status).toBe(201);
    expect(later.body.status).toBe("published");
  });

  it("a draft published now is refused the same way and stays a draft", async () => {
    live = await liveService(twoPerMinute);
    const { user } = live;
    const draft = await user.createPost({ caption: "draft", platforms: ["telegram"], draft: true });
    await user.post("/posts", { caption: "one", platforms: ["telegram"] });
    await user.post("/posts", { caption: "two", platforms: ["telegram"] });
    const refused = await user.post(`/posts/${draft.id}/publish`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(
      /^Telegram allows 2 posts per minute .* can publish again at \S+Z \(in 60 s\)/,
    );
    expect((await user.get(`/posts/${draft.id}`)).body.status).toBe("draft");
  });

  it("a scheduled post beyond the pace is accepted and waits for its slot", async () => {
    live = await liveService(twoPerMinute);
    const { user, clock } = live;
    const [telegram] = live.adapters as [ScriptedAdapter];
    const start = clock.now();
    await user.post("/posts", { caption: "one", platforms: ["telegram"] });
    await user.post("/posts", { caption: "two", platforms: ["telegram"] });
    const scheduled = await user.createPost({
      caption: "three",
      platforms: ["telegram"],
      schedule_at: new Date(start + 5_000).toISOString(),
    });
    await clock.advance(5_000);
    expect(telegram.publishes).toHaveLength(2);
    expect((await targetsOf(user, scheduled.id)).telegram.status).toBe("pending");
    await clock.set(start + 60_000);
    expect(telegram.publishes.map((p) => p.at)).toEqual([start, start, start + 60_000]);
    expect((await targetsOf(user, scheduled.id)).telegram.status).toBe("published");
  });

  it("two requests at once cannot both take the last free slot", async () => {
    live = await liveService(twoPerMinute);
    const { user } = live;
    await user.post("/posts", { caption: "one", platforms: ["telegram"] });
    const answers = await Promise.all([
      user.post("/posts", { caption: "a", platforms: ["telegram"] }),
      user.post("/posts", { caption: "b", platforms: ["telegram"] }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
    expect(live.adapters[0]!.publishes).toHaveLength(2);
  });
});
