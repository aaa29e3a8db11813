import { afterEach, describe, expect, it } from "vitest";
import { type LiveService, liveService, targetsOf } from "./helpers/live-service.ts";
import { ScriptedAdapter } from "./helpers/scripted-adapter.ts";

/*
 * POST /posts/{id}/retry with live networks: a network that failed is sent again once, with the
 * account's credentials as they are now, and never twice where an earlier attempt may have published.
 */

let live: (LiveService & { adapters: ScriptedAdapter[] }) | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

describe("POST /posts/{id}/retry with live networks", () => {
  it("sends a refused network again with the credentials it was reconnected with; the network that published is not sent again", async () => {
    live = await liveService((clock) => [
      new ScriptedAdapter("telegram", clock),
      new ScriptedAdapter("discord", clock),
    ]);
    const { user, store } = live;
    const [telegram, discord] = live.adapters as [ScriptedAdapter, ScriptedAdapter];
    telegram.script.push(telegram.failure("refused", "Forbidden: bot was kicked from the chat"));
    const post = await user.createPost({ caption: "Hello", platforms: ["telegram", "discord"] });
    expect(post.status).toBe("published");
    expect((await targetsOf(user, post.id)).telegram).toMatchObject({ status: "failed" });

    const connected = await user.post("/accounts/connect", {
      platform: "telegram",
      bot_token: "the-new-token",
      chat: "@chat",
    });
    expect(connected.status, connected.text).toBe(200);
    const res = await user.post(`/posts/${post.id}/retry`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "published" });
    expect(telegram.publishes.map((p) => p.credentials)).toEqual([
      { token: "token-that-is-a-secret" },
      { token: "the-new-token" },
    ]);
    // Under the same key as the first attempt: a network that names posts by it cannot get two.
    expect(telegram.publishes[1]!.post.key).toBe(telegram.publishes[0]!.post.key);
    expect(discord.publishes).toHaveLength(1);
    expect((await targetsOf(user, post.id)).telegram).toMatchObject({
      status: "published",
      permalink: telegram.posted(telegram.publishes[1]!.post.key).permalink,
    });
    const published = (await store.listEvents(user.id)).filter((e) => e.type === "post.published");
    expect(published.map((e) => (e.data as { platform: string }).platform)).toEqual(["discord", "telegram"]);
  });

  it("a network whose outcome is unknown and that cannot be asked is not sent again: it stays failed, saying why", async () => {
    live = await liveService((clock) => [new ScriptedAdapter("threads", clock, { withFind: false })]);
    const { user } = live;
    const [threads] = live.adapters as [ScriptedAdapter];
    threads.script.push(threads.failure("unknown", "the connection closed before an answer came"));
    const post = await user.createPost({ caption: "Maybe", platforms: ["threads"] });
    expect(post.status).toBe("draft");
    const before = (await targetsOf(user, post.id)).threads;
    expect(before.error).toMatch(/outcome unknown: check the network/);

    const res = await user.post(`/posts/${post.id}/retry`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("draft");
    expect(threads.publishes).toHaveLength(1);
    expect((await targetsOf(user, post.id)).threads).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/outcome unknown: check the network .*it was not sent again/),
    });
  });

  it("a network whose outcome is unknown is asked first: found there, it is published without sending again", async () => {
    live = await liveService((clock) => [new ScriptedAdapter("telegram", clock)]);
    const { user, clock } = live;
    const [telegram] = live.adapters as [ScriptedAdapter];
    // No answer came, and asking the network then failed until the account needed reconnecting.
    telegram.script.push(async (post) => {
      telegram.found.set(post.key, telegram.posted(post.key));
      throw telegram.failure("unknown", "no answer came");
    });
    const find = telegram.findPublished!;
    let asked = 0;
    telegram.findPublished = async (...args) => {
      if (asked++ === 0) throw telegram.failure("reauth", "Unauthorized");
      return find(...args);
    };
    const post = await user.createPost({ caption: "Lost answer", platforms: ["telegram"] });
    await clock.advance(2 * 60_000);
    expect((await targetsOf(user, post.id)).telegram).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/outcome unknown/),
    });
    await user.post("/accounts/connect", { platform: "telegram", bot_token: "again", chat: "@chat" });
    const res = await user.post(`/posts/${post.id}/retry`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("published");
    expect(telegram.publishes).toHaveLength(1);
    expect((await targetsOf(user, post.id)).telegram).toMatchObject({
      status: "published",
      permalink: telegram.posted(telegram.publishes[0]!.post.key).permalink,
    });
  });

  it("answers 409 while a network is still being published to (a retry due later)", async () => {
    live = await liveService((clock) => [
      new ScriptedAdapter("telegram", clock),
      new ScriptedAdapter("discord", clock),
    ]);
    const { user } = live;
    const [telegram] = live.adapters as [ScriptedAdapter];
    telegram.script.push(telegram.failure("retry", "Too Many Requests: retry after 150", 150_000));
    const post = await user.createPost({ caption: "Busy", platforms: ["telegram", "discord"] });
    expect(post.status).toBe("published");
    const res = await user.post(`/posts/${post.id}/retry`);
    expect([res.status, res.body.error]).toEqual([
      409,
      "The post is still publishing to Telegram; retry it once every network has finished (GET /posts/{id}/targets).",
    ]);
    expect(telegram.publishes).toHaveLength(1);
  });
});
