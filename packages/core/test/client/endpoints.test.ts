import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_VERSION, ResponseValidationError, SocialPublishClient } from "../../src/client/index.ts";
import type { WebhookEvent } from "../../src/contract/events.ts";
import type { Analytics, Media, Target } from "../../src/contract/resources.ts";
import type { PostContentView } from "../../src/contract/rich.ts";
import { samplePost } from "./helpers/sample-resources.ts";
import { ScriptedServer } from "./helpers/scripted-server.ts";

// What goes on the wire for each endpoint (method, path, headers, body) and how each answer is read,
// against a scripted peer that records every request. The same endpoints run against the reference
// service in helpers/client-suite.ts.
const API_KEY = "sp_test_0123456789abcdefghijklmnopqrstuv";
const server = new ScriptedServer();
const client = () => new SocialPublishClient({ apiKey: API_KEY, baseUrl: server.baseUrl, maxRetries: 0 });

beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});

const webhook = {
  id: "wh_01JD3Z6Q1M8W5V0K9T2R4Y7B3F",
  url: "https://hooks.example.com/socialpub",
  events: ["post.published", "post.failed"],
  status: "enabled",
  created_at: 1_780_000_000_000,
} as const;
const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

function last() {
  const request = server.seen.at(-1);
  if (!request) throw new Error("no request seen");
  const isJson = request.headers["content-type"] === "application/json";
  return { ...request, json: isJson ? JSON.parse(request.body.toString()) : undefined };
}

describe("every request", () => {
  it("carries the bearer key, Accept and a versioned User-Agent", async () => {
    server.script({ status: 200, body: { data: [] } });
    await client().accounts.list();
    const { headers } = last();
    expect(headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(headers.accept).toBe("application/json");
    expect(headers["user-agent"]).toBe(`socialpub-client/${CLIENT_VERSION}`);
  });

  it("keeps connections alive between requests by default", async () => {
    server.script({ status: 200, body: { data: [] } });
    const api = client();
    for (let i = 0; i < 6; i++) await api.accounts.list();
    await api.close();
    const connections = new Set(server.seen.map((request) => request.remotePort));
    expect(server.seen).toHaveLength(6);
    // undici may open a second socket while the first is being released; never one per request.
    expect(connections.size).toBeLessThanOrEqual(2);
  });

  it("reports the package's version in User-Agent", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(CLIENT_VERSION).toBe(pkg.version);
  });

  it("encodes ids in paths and keeps the base path", async () => {
    server.script({ status: 404, body: { error: "Post not found." } });
    await expect(client().posts.get("a/b?c")).rejects.toThrow("Post not found.");
    expect(last().url).toBe("/api/v1/posts/a%2Fb%3Fc");
  });

  it("accepts a base URL with a trailing slash", async () => {
    server.script({ status: 200, body: { data: [] } });
    await new SocialPublishClient({ apiKey: API_KEY, baseUrl: `${server.baseUrl}/` }).accounts.list();
    expect(last().url).toBe("/api/v1/accounts");
  });

  it("refuses an empty id rather than addressing the collection", async () => {
    await expect(client().posts.get("")).rejects.toThrow(/id is required/);
  });
});

describe("posts", () => {
  it("create sends the body as JSON", async () => {
    server.script({
      status: 201,
      body: samplePost({ status: "scheduled", scheduled_at: 1_790_000_000_000 }),
    });
    const post = await client().posts.create({
      caption: "Later",
      platforms: ["x", "bluesky"],
      schedule_at: "2026-12-01T09:00:00Z",
    });
    expect(post.status).toBe("scheduled");
    expect(last()).toMatchObject({ method: "POST", url: "/api/v1/posts" });
    expect(last().headers["content-type"]).toBe("application/json");
    expect(last().json).toEqual({
      caption: "Later",
      platforms: ["x", "bluesky"],
      schedule_at: "2026-12-01T09:00:00Z",
    });
  });

  it("create and schedule send captions (text per network) as given", async () => {
    server.script({ status: 201, body: samplePost() });
    await client().posts.create({
      caption: "All",
      captions: { linkedin: "LinkedIn" },
      platforms: ["x", "linkedin"],
    });
    expect(last().json).toEqual({
      caption: "All",
      captions: { linkedin: "LinkedIn" },
      platforms: ["x", "linkedin"],
    });
    server.script({
      status: 201,
      body: samplePost({ status: "scheduled", scheduled_at: 1_790_000_000_000 }),
    });
    await client().schedule({ captions: { x: "X only" }, platforms: ["x"], at: "next" });
    expect(last().json).toEqual({ captions: { x: "X only" }, platforms: ["x"], at: "next" });
  });

  it("validate sends POST /posts/validate with the post and no Idempotency-Key; retry sends POST /posts/{id}/retry with one, the same on a retry", async () => {
    const validation = {
      valid: true,
      targets: [{ platform: "x", parts: [{ text: "Hi", media: [] }], first_comment: null, notes: [] }],
    };
    server.script({ status: 200, body: validation });
    expect(await client().posts.validate({ caption: "Hi", platforms: ["x"] })).toEqual(validation);
    expect(last()).toMatchObject({ method: "POST", url: "/api/v1/posts/validate" });
    expect(last().json).toEqual({ caption: "Hi", platforms: ["x"] });
    expect(last().headers["idempotency-key"]).toBeUndefined();

    const retried = samplePost({ status: "published" });
    server.script({ status: 503, body: { error: "Try again." } }, { status: 200, body: retried });
    const retrying = new SocialPublishClient({
      apiKey: API_KEY,
      baseUrl: server.baseUrl,
      maxRetries: 1,
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
    });
    expect(await retrying.posts.retry("post_1")).toEqual(retried);
    const [first, second] = server.seen.slice(-2);
    expect(second).toMatchObject({ method: "POST", url: "/api/v1/posts/post_1/retry" });
    expect(second!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers["idempotency-key"]).toBe(first!.headers["idempotency-key"]);
    await retrying.close();
  });

  it("update sends PATCH /posts/{id} with the fields to change and an Idempotency-Key, the same on a retry", async () => {
    const edited = samplePost({ status: "draft", scheduled_at: null });
    server.script({ status: 503, body: { error: "Try again." } }, { status: 200, body: edited });
    const retrying = new SocialPublishClient({
      apiKey: API_KEY,
      baseUrl: server.baseUrl,
      maxRetries: 1,
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
    });
    const post = await retrying.posts.update("post_1", {
      caption: "Edited",
      captions: { x: "Edited for X" },
      schedule_at: null,
      media: null,
    });
    expect(post).toEqual(edited);
    const [first, second] = server.seen.slice(-2);
    expect(second).toMatchObject({ method: "PATCH", url: "/api/v1/posts/post_1" });
    expect(last().json).toEqual({
      caption: "Edited",
      captions: { x: "Edited for X" },
      schedule_at: null,
      media: null,
    });
    expect(second!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers["idempotency-key"]).toBe(first!.headers["idempotency-key"]);
  });

  it("list sends status as a comma list and limit, and returns the next cursor from the Link header", async () => {
    server.script({
      status: 200,
      body: { data: [samplePost()] },
      headers: { link: '</api/v1/posts?status=scheduled%2Cpublished&limit=1&cursor=abc123>; rel="next"' },
    });
    const page = await client().posts.list({ status: ["scheduled", "published"], limit: 1 });
    expect(last().url).toBe("/api/v1/posts?status=scheduled%2Cpublished&limit=1");
    expect(page).toEqual({ data: [samplePost()], nextCursor: "abc123" });
  });

  it("list returns a null cursor on the last page", async () => {
    server.script({ status: 200, body: { data: [] } });
    expect(await client().posts.list({ cursor: "abc123" })).toEqual({ data: [], nextCursor: null });
    expect(last().url).toBe("/api/v1/posts?cursor=abc123");
  });

  it("listAll follows the Link header's next page until there is none", async () => {
    const ids = ["post_3", "post_2", "post_1"];
    server.script(
      {
        status: 200,
        body: { data: [samplePost({ id: ids[0] })] },
        headers: { link: `<${server.baseUrl}/posts?limit=1&cursor=c1>; rel="next"` },
      },
      {
        status: 200,
        body: { data: [samplePost({ id: ids[1] })] },
        headers: {
          link: '</api/v1/posts?limit=1&cursor=c2>; rel="next", </api/v1/posts?limit=1>; rel="first"',
        },
      },
      { status: 200, body: { data: [samplePost({ id: ids[2] })] } },
    );
    const seen: string[] = [];
    for await (const post of client().posts.listAll({ limit: 1 })) seen.push(post.id);
    expect(seen).toEqual(ids);
    expect(server.seen.map((r) => r.url)).toEqual([
      "/api/v1/posts?limit=1",
      "/api/v1/posts?limit=1&cursor=c1",
      "/api/v1/posts?limit=1&cursor=c2",
    ]);
  });

  it("listAll never sends the key to a next page outside the base URL", async () => {
    server.script({
      status: 200,
      body: { data: [samplePost()] },
      headers: { link: '<https://elsewhere.example/api/v1/posts?cursor=x>; rel="next"' },
    });
    const run = async () => {
      for await (const _ of client().posts.listAll()) {
        // drain
      }
    };
    await expect(run()).rejects.toThrow(/outside the base URL/);
    expect(server.seen).toHaveLength(1);
  });

  it("listAll stops with an error when the service links the same page again", async () => {
    server.script({
      status: 200,
      body: { data: [samplePost()] },
      headers: { link: '</api/v1/posts?cursor=same>; rel="next"' },
    });
    const run = async () => {
      for await (const _ of client().posts.listAll()) {
        // drain
      }
    };
    await expect(run()).rejects.toThrow(/same next page twice/);
    expect(server.seen).toHaveLength(2);
  });

  it("targets returns each network's result", async () => {
    const target: Target = {
      platform: "x",
      status: "published",
      text: "Hello",
      permalink: "https://sandbox.socialpub.dev/x/1",
      error: null,
      published_at: 1_780_000_000_000,
      reach: 10,
      likes: 1,
      comments: 0,
      shares: 0,
      parts: [{ text: "Hello", status: "published", permalink: "https://sandbox.socialpub.dev/x/1" }],
      media: [],
      first_comment: null,
      notes: [],
    };
    server.script({ status: 200, body: { data: [target] } });
    expect(await client().posts.targets("post_1")).toEqual({ data: [target] });
    expect(last().url).toBe("/api/v1/posts/post_1/targets");
  });

  it("content returns the post's whole content as sent", async () => {
    const content: PostContentView = {
      caption: "Hello",
      captions: {},
      media: [{ url: "https://cdn.example.com/a.png", type: "image/png", alt: "A door" }],
      thread: [{ caption: "More", captions: {}, media: [] }],
      first_comment: "Link",
      poll: null,
      options: { x: { reply_settings: "following" } },
      split: "shorten",
    };
    server.script({ status: 200, body: content });
    expect(await client().posts.content("post_1")).toEqual(content);
    expect(last()).toMatchObject({ method: "GET", url: "/api/v1/posts/post_1/content" });
  });
});

describe("schedule", () => {
  it("posts the body to /schedule and returns the scheduled post", async () => {
    server.script({
      status: 201,
      body: samplePost({ status: "scheduled", scheduled_at: 1_790_000_000_000, published_at: null }),
    });
    const post = await client().schedule({ caption: "Best time", platforms: ["linkedin"], at: "next" });
    expect(post.status).toBe("scheduled");
    expect(last()).toMatchObject({ method: "POST", url: "/api/v1/schedule" });
    expect(last().json).toEqual({ caption: "Best time", platforms: ["linkedin"], at: "next" });
    expect(last().headers["idempotency-key"]).toBeDefined();
  });
});

describe("accounts", () => {
  it("connect posts the platform and returns the account", async () => {
    const account = { platform: "bluesky", handle: "ada.bsky.social", followers: 0, health: "healthy" };
    server.script({ status: 201, body: account });
    expect(await client().accounts.connect({ platform: "bluesky", handle: "ada.bsky.social" })).toEqual(
      account,
    );
    expect(last()).toMatchObject({ method: "POST", url: "/api/v1/accounts/connect" });
    expect(last().json).toEqual({ platform: "bluesky", handle: "ada.bsky.social" });
  });

  it("disconnect deletes /accounts/{platform} with an Idempotency-Key", async () => {
    server.script({ status: 200, body: { deleted: true, id: "bluesky" } });
    expect(await client().accounts.disconnect("bluesky")).toEqual({ deleted: true, id: "bluesky" });
    expect(last()).toMatchObject({ method: "DELETE", url: "/api/v1/accounts/bluesky" });
    expect(last().headers["idempotency-key"]).toBeDefined();
  });
});

describe("analytics", () => {
  it("get returns the camelCase summary", async () => {
    const summary: Analytics = {
      totalReach: 10,
      engagementRate: 10,
      postsPublished: 1,
      followers: 5,
      perPlatform: [{ platform: "x", reach: 10, engagementRate: 10 }],
    };
    server.script({ status: 200, body: summary });
    expect(await client().analytics.get()).toEqual(summary);
    expect(last().url).toBe("/api/v1/analytics");
  });
});

describe("webhooks", () => {
  it("create returns the endpoint with its secret", async () => {
    server.script({ status: 201, body: { ...webhook, secret } });
    const created = await client().webhooks.create({
      url: webhook.url,
      events: ["post.published", "post.failed"],
    });
    expect(created.secret).toBe(secret);
    expect(last()).toMatchObject({ method: "POST", url: "/api/v1/webhooks" });
    expect(last().json).toEqual({ url: webhook.url, events: ["post.published", "post.failed"] });
  });

  it("list, get and delete address the endpoints", async () => {
    server.script({ status: 200, body: { data: [webhook] } });
    expect(await client().webhooks.list()).toEqual({ data: [webhook] });
    server.script({ status: 200, body: webhook });
    expect(await client().webhooks.get(webhook.id)).toEqual(webhook);
    expect(last().url).toBe(`/api/v1/webhooks/${webhook.id}`);
    server.script({ status: 200, body: { deleted: true, id: webhook.id } });
    expect(await client().webhooks.delete(webhook.id)).toEqual({ deleted: true, id: webhook.id });
    expect(last().method).toBe("DELETE");
  });

  it("update sends PATCH /webhooks/{id} with the fields to change, without an Idempotency-Key", async () => {
    server.script({ status: 200, body: webhook });
    expect(await client().webhooks.update(webhook.id, { status: "enabled" })).toEqual(webhook);
    expect(last()).toMatchObject({ method: "PATCH", url: `/api/v1/webhooks/${webhook.id}` });
    expect(last().json).toEqual({ status: "enabled" });
    expect(last().headers["idempotency-key"]).toBeUndefined();
  });

  it("list is refused when an endpoint carries an unknown event type", async () => {
    server.script({ status: 200, body: { data: [{ ...webhook, events: ["post.exploded"] }] } });
    await expect(client().webhooks.list()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it("test posts to /webhooks/{id}/test and returns the queued event", async () => {
    const event: WebhookEvent = {
      id: "evt_01",
      type: "post.deleted",
      created: 1_780_000_000,
      data: { post_id: "post_1", previous_status: "scheduled" },
    };
    server.script({ status: 202, body: event });
    expect(await client().webhooks.test(webhook.id, { type: "post.deleted" })).toEqual(event);
    expect(last()).toMatchObject({ method: "POST", url: `/api/v1/webhooks/${webhook.id}/test` });
    expect(last().json).toEqual({ type: "post.deleted" });
  });
});

describe("keys", () => {
  const key = {
    id: "key_01JD3Z6Q1M8W5V0K9T2R4Y7B3F",
    mode: "test",
    name: "CI",
    hint: "sp_test_…stuv",
    created_at: 1_780_000_000_000,
    last_used_at: null,
  } as const;

  it("list reads GET /keys; revoke sends DELETE /keys/{id} with an Idempotency-Key", async () => {
    server.script({ status: 200, body: { data: [key] } });
    expect(await client().keys.list()).toEqual({ data: [key] });
    expect(last()).toMatchObject({ method: "GET", url: "/api/v1/keys" });
    server.script({ status: 200, body: { deleted: true, id: key.id } });
    expect(await client().keys.revoke(key.id)).toEqual({ deleted: true, id: key.id });
    expect(last()).toMatchObject({ method: "DELETE", url: `/api/v1/keys/${key.id}` });
    expect(last().headers["idempotency-key"]).toEqual(expect.any(String));
  });

  it("create sends POST /keys once, without an Idempotency-Key: a retry could make a second key", async () => {
    server.script({ status: 503, body: { error: "Service unavailable." } });
    // The client's default retries; create alone does not retry.
    const api = new SocialPublishClient({ apiKey: API_KEY, baseUrl: server.baseUrl });
    await expect(api.keys.create({ mode: "test", name: "CI" })).rejects.toMatchObject({ status: 503 });
    expect(server.seen).toHaveLength(1);
    expect(last()).toMatchObject({ method: "POST", url: "/api/v1/keys" });
    expect(last().json).toEqual({ mode: "test", name: "CI" });
    expect(last().headers["idempotency-key"]).toBeUndefined();
    const made = { id: key.id, key: `sp_test_${"k".repeat(40)}`, mode: "test", name: "CI", created_at: 1 };
    server.script({ status: 201, body: made });
    expect(await api.keys.create({ mode: "test", name: "CI" })).toEqual(made);
    await api.close();
  });
});

describe("media", () => {
  const media: Media = {
    id: "med_01",
    url: "https://cdn.example.com/a.png",
    type: "image/png",
    size: 4,
    status: "ready",
  };

  it("upload sends raw bytes with their media type", async () => {
    server.script({ status: 201, body: media });
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    expect(await client().media.upload({ data: bytes, contentType: "image/png" })).toEqual(media);
    expect(last().headers["content-type"]).toBe("image/png");
    expect([...last().body]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it("upload accepts a Blob", async () => {
    server.script({ status: 201, body: media });
    await client().media.upload({ data: new Blob([new Uint8Array([1, 2, 3])]), contentType: "video/mp4" });
    expect([...last().body]).toEqual([1, 2, 3]);
    expect(last().headers["content-type"]).toBe("video/mp4");
  });

  it("upload of a URL sends JSON", async () => {
    server.script({ status: 201, body: { ...media, status: "processing", size: 0 } });
    await client().media.upload({ url: media.url });
    expect(last().json).toEqual({ url: media.url });
    await client().media.upload({ url: "https://cdn.example.com/clip", type: "video/mp4" });
    expect(last().json).toEqual({ url: "https://cdn.example.com/clip", type: "video/mp4" });
    expect(last().headers["content-type"]).toBe("application/json");
  });

  it("upload of bytes without a media type is refused before sending", async () => {
    server.script({ status: 201, body: media });
    await expect(client().media.upload({ data: new Uint8Array([1]), contentType: "" })).rejects.toThrow(
      /contentType/,
    );
    expect(server.seen).toHaveLength(0);
  });
});
