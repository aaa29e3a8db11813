import { afterEach, describe, expect, it } from "vitest";
import { type LiveService, liveService, targetsOf } from "./helpers/live-service.ts";
import { ScriptedAdapter } from "./helpers/scripted-adapter.ts";

/*
 * Failures a network classifies as "retry later": the network's retry hint is honoured when it asks
 * for longer than the backoff, the backoff is 1, 5, 15 and 40 minutes, and attempts stop after 5
 * (decisions.md: back off up to 5 attempts over about an hour). A revoked grant turns the account
 * reauth_required and sends account.disconnected once.
 */

const MIN = 60_000;
let live: (LiveService & { adapters: ScriptedAdapter[] }) | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

async function setup() {
  live = await liveService((clock) => [new ScriptedAdapter("telegram", clock)]);
  const [telegram] = live.adapters as [ScriptedAdapter];
  return { ...live, telegram, start: live.clock.now() };
}

describe("retries of a live network", () => {
  it("honour the network's retry hint when it is longer than the backoff", async () => {
    const { user, clock, telegram, start } = await setup();
    telegram.script.push(telegram.failure("retry", "Too Many Requests: retry after 150", 150_000));
    const post = await user.createPost({ caption: "hi", platforms: ["telegram"] });
    expect(post.status).toBe("publishing");
    const target = (await targetsOf(user, post.id)).telegram;
    expect(target).toMatchObject({
      status: "pending",
      error: "Telegram: Too Many Requests: retry after 150",
    });
    // The backoff alone would retry after 1 minute; the network asked for 150 s.
    await clock.advance(149_999);
    expect(telegram.publishes).toHaveLength(1);
    await clock.advance(1);
    expect(telegram.publishes.map((p) => p.at - start)).toEqual([0, 150_000]);
    expect((await targetsOf(user, post.id)).telegram).toMatchObject({ status: "published", error: null });
    expect((await user.get(`/posts/${post.id}`)).body.status).toBe("published");
    // Every attempt used the same key, so a network that names posts by it cannot get two.
    expect(new Set(telegram.publishes.map((p) => p.post.key)).size).toBe(1);
  });

  it("keep the backoff when the network's hint is shorter", async () => {
    const { user, clock, telegram, start } = await setup();
    telegram.script.push(telegram.failure("retry", "busy", 2_000));
    await user.createPost({ caption: "hi", platforms: ["telegram"] });
    await clock.advance(MIN - 1);
    expect(telegram.publishes).toHaveLength(1);
    await clock.advance(1);
    expect(telegram.publishes.map((p) => p.at - start)).toEqual([0, MIN]);
  });

  it("back off 1, 5, 15 and 40 minutes and give up after 5 attempts: the post goes back to draft", async () => {
    const { user, clock, telegram, store, start } = await setup();
    for (let i = 0; i < 6; i++) telegram.script.push(telegram.failure("retry", "Bad Gateway"));
    const post = await user.createPost({ caption: "hi", platforms: ["telegram"] });
    await clock.advance(3 * 60 * MIN);
    expect(telegram.publishes.map((p) => (p.at - start) / MIN)).toEqual([0, 1, 6, 21, 61]);
    const target = (await targetsOf(user, post.id)).telegram;
    expect(target).toMatchObject({
      status: "failed",
      error: "Telegram: Bad Gateway (gave up after 5 attempts)",
    });
    expect((await user.get(`/posts/${post.id}`)).body.status).toBe("draft");
    const failed = (await store.listEvents(user.id)).filter((e) => e.type === "post.failed");
    expect(failed).toHaveLength(1);
  });

  it("a refused post is never retried", async () => {
    const { user, clock, telegram } = await setup();
    telegram.script.push(telegram.failure("refused", "Bad Request: chat not found"));
    const post = await user.createPost({ caption: "hi", platforms: ["telegram"] });
    expect(post.status).toBe("draft");
    await clock.advance(2 * 60 * MIN);
    expect(telegram.publishes).toHaveLength(1);
    expect((await targetsOf(user, post.id)).telegram.error).toBe("Telegram: Bad Request: chat not found");
  });
});

describe("a revoked grant", () => {
  it("turns the account reauth_required, sends account.disconnected once, and fails its posts until reconnected", async () => {
    const { user, clock, telegram, store } = await setup();
    telegram.script.push(telegram.failure("reauth", "Unauthorized: the bot token was revoked"));
    const first = await user.createPost({ caption: "one", platforms: ["telegram"] });
    expect(first.status).toBe("draft");
    const target = (await targetsOf(user, first.id)).telegram;
    expect(target.status).toBe("failed");
    expect(target.error).toBe(
      "Telegram: Unauthorized: the bot token was revoked; reconnect the Telegram account (POST /accounts/connect), then publish the post again.",
    );
    const accounts = (await user.get("/accounts")).body.data;
    expect(accounts).toMatchObject([{ platform: "telegram", health: "reauth_required" }]);
    const disconnected = () =>
      store.listEvents(user.id).then((events) => events.filter((e) => e.type === "account.disconnected"));
    expect(await disconnected()).toMatchObject([
      { data: { platform: "telegram", health: "reauth_required" } },
    ]);

    // Further posts fail without reaching the network, and nothing is announced twice.
    await clock.advance(1000);
    const second = await user.createPost({ caption: "two", platforms: ["telegram"] });
    expect((await targetsOf(user, second.id)).telegram.error).toMatch(/needs to be reconnected/);
    expect(telegram.publishes).toHaveLength(1);
    expect(await disconnected()).toHaveLength(1);

    // Reconnecting makes it healthy again, and a draft publishes.
    const again = await user.post("/accounts/connect", {
      platform: "telegram",
      bot_token: "new-token-1234",
      chat: "@chat",
    });
    expect(again.status).toBe(200);
    expect(again.body.health).toBe("healthy");
    await clock.advance(1000);
    const published = await user.post(`/posts/${second.id}/publish`, {});
    expect(published.body.status).toBe("published");
    expect(telegram.publishes.at(-1)!.credentials).toEqual({ token: "new-token-1234" });
  });
});
