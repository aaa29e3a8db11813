import { afterEach, describe, expect, it } from "vitest";
import { publishKey } from "../../src/networks/record-key.ts";
import { type LiveService, liveService } from "./helpers/live-service.ts";
import { ScriptedAdapter } from "./helpers/scripted-adapter.ts";

/*
 * The key a post is published under on a network (PublishInput.key) comes from the post by default; a
 * caller that knows what the post stands for across runs (the GitHub Action without a server, keyed on
 * the release) chooses it instead, so two posts of the same thing reach the network under one key.
 */

let live: (LiveService & { adapters: ScriptedAdapter[] }) | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

describe("the publish key", () => {
  it("comes from the post's id, time and network by default", async () => {
    live = await liveService((clock) => [new ScriptedAdapter("telegram", clock)]);
    const [telegram] = live.adapters as [ScriptedAdapter];
    const post = await live.user.createPost({ caption: "hi", platforms: ["telegram"] });
    const record = await live.store.getPost(live.user.id, post.id);
    expect(telegram.publishes.map((p) => p.post.key)).toEqual([
      publishKey(post.id, record!.created_at, "telegram"),
    ]);
  });

  it("is the caller's when the service is given publishKey, for every post of the same thing", async () => {
    const fixed = "3lbrelease0001";
    live = await liveService((clock) => [new ScriptedAdapter("telegram", clock)], {
      service: { publishKey: (_post, platform) => (platform === "telegram" ? fixed : "unused") },
    });
    const [telegram] = live.adapters as [ScriptedAdapter];
    await live.user.createPost({ caption: "one", platforms: ["telegram"] });
    await live.user.createPost({ caption: "two", platforms: ["telegram"] });
    expect(telegram.publishes.map((p) => p.post.key)).toEqual([fixed, fixed]);
  });
});
