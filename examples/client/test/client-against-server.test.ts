import {
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PLANS,
  SocialPublishClient,
  Target,
} from "@socialpub/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReferenceServer, startReferenceServer } from "./support/reference-server.ts";

// The client with its default undici transport against the real server process over HTTP, on the
// system clock. (The core package runs the fuller suite in-process and over HTTP on a fake clock.)
let server: ReferenceServer;
let client: SocialPublishClient;

beforeAll(async () => {
  server = await startReferenceServer();
  client = new SocialPublishClient({ apiKey: server.apiKey, baseUrl: server.baseUrl });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe("client against socialpub-server", () => {
  it("reads the dev user and its connected accounts", async () => {
    const me = await client.me();
    expect(me.plan).toBe("studio");
    expect(me.limits).toEqual(PLANS.studio);
    const { data: accounts } = await client.accounts.list();
    expect(accounts.map((a) => a.platform)).toContain("bluesky");
  });

  it("publishes now, reads the post back, reports metrics and sees them in analytics, then deletes it", async () => {
    const post = await client.posts.create({ caption: "Over real HTTP", platforms: ["x", "bluesky"] });
    expect(post.status).toBe("published");
    expect(await client.posts.get(post.id)).toEqual(post);
    const { data: targets } = await client.posts.targets(post.id);
    expect(targets.map((t) => t.status)).toEqual(["published", "published"]);

    await client.request({
      method: "POST",
      path: "/sandbox/metrics",
      json: { post_id: post.id, platform: "x", reach: 100, likes: 3 },
      schema: Target,
    });
    expect((await client.analytics.get()).totalReach).toBeGreaterThanOrEqual(100);

    expect(await client.posts.delete(post.id)).toEqual({ deleted: true, id: post.id });
    await expect(client.posts.get(post.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("waits for a post scheduled a second ahead to be published by the server's scheduler", async () => {
    const post = await client.posts.create({
      caption: "In a second",
      platforms: ["linkedin"],
      schedule_at: Date.now() + 1000,
    });
    expect(post.status).toBe("scheduled");
    const published = await client.posts.waitFor(post.id, "published", {
      intervalMs: 100,
      timeoutMs: 30_000,
    });
    expect(published.published_at).not.toBeNull();
  });

  it("walks every page with listAll", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await client.posts.create({ caption: `Page test ${i}`, platforms: ["x"] })).id);
    }
    const seen: string[] = [];
    for await (const post of client.posts.listAll({ limit: 2 })) seen.push(post.id);
    expect(seen.slice(0, 5)).toEqual([...ids].reverse());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("turns the server's errors into typed errors with its messages", async () => {
    const stranger = new SocialPublishClient({
      apiKey: "sp_test_00000000000000000000000000000000",
      baseUrl: server.baseUrl,
    });
    const denied = await stranger.me().catch((e: unknown) => e);
    await stranger.close();
    expect(denied).toBeInstanceOf(AuthenticationError);
    expect((denied as AuthenticationError).message).toBe("Invalid or revoked API key.");
    expect((denied as AuthenticationError).requestId).toEqual(expect.any(String));

    const refused = await client.posts
      .create({ caption: "Nowhere", platforms: ["tiktok"] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).message).toBe("Select at least one connected network.");
  });
});
