import { describe, expect, it } from "vitest";
import { silentLogger } from "../src/logger.ts";
import { createService } from "../src/service/create-service.ts";
import { takesIdempotencyKey } from "../src/service/idempotency.ts";
import { ROUTES } from "../src/service/routes/index.ts";
import { MemoryStore } from "../src/store/memory.ts";
import type { Store } from "../src/store/types.ts";
import { ApiUser, FakeClock, provisionUser, SAMPLE_PNG, type ServiceTarget } from "../src/testing/index.ts";

/**
 * The store as it is when the process dies right after a keyed request's change is written: the step
 * that stores the answer once it is sent never happens. Whatever a retry replays must have been written
 * with the change itself.
 */
function diesBeforeStoringTheAnswer(store: Store): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === "completeIdempotentRequest") return async () => {};
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function setup(wrap: (store: Store) => Store = (store) => store) {
  const memory = new MemoryStore();
  const store = wrap(memory);
  const clock = new FakeClock();
  const service = createService({ store, clock, logger: silentLogger, allowPrivateWebhookUrls: true });
  const target: ServiceTarget = {
    fetch: (request) => service.fetch(request),
    store,
    clock,
    close: async () => {
      await service.close();
      await memory.close();
    },
  };
  const user = new ApiUser(
    target,
    await provisionUser(memory, { plan: "studio", accounts: ["x", "bluesky"], now: clock.now() }),
  );
  return { memory, store, clock, service, target, user };
}

/** Everything a write can change that the store lets one read back. */
async function snapshot(store: Store, userId: string) {
  const posts = await store.listPosts(userId, { limit: 500 });
  return {
    posts,
    targets: await Promise.all(posts.map((p) => store.getTargets(p.id))),
    events: await store.listEvents(userId),
    accounts: await store.listAccounts(userId, "test"),
    webhooks: await store.listWebhooks(userId),
  };
}

describe("a keyed write stores its answer with its change", () => {
  it("every write that takes a key (POST, DELETE, PATCH /posts/{id}) and changes something replays its answer though the process died before storing it", async () => {
    const { user, target } = await setup(diesBeforeStoringTheAnswer);
    const draft = async (caption: string) =>
      (await user.createPost({ caption, platforms: ["x"], draft: true })).id;
    const later = target.clock.now() + 3_600_000;
    const webhook = (await user.post("/webhooks", { url: "http://127.0.0.1:9/hook" })).body.id;
    const published = (await user.createPost({ caption: "Out", platforms: ["x"] })).id;
    const eventId = (await target.store.listEvents(user.id)).at(-1)!.id;
    const deleteMe = await draft("Delete me");
    const goodbye = (await user.post("/webhooks", { url: "http://127.0.0.1:9/bye" })).body.id;
    const png = new Uint8Array(SAMPLE_PNG);
    const revokeMe = (await user.post("/keys", { mode: "test", name: "Revoke me" })).body.id;
    // A post whose bluesky failed, bluesky since reconnected: what a retry sends again.
    await user.post("/sandbox/accounts/bluesky", { health: "reauth_required" });
    const halfOut = (await user.createPost({ caption: "Half out", platforms: ["x", "bluesky"] })).id;
    await user.post("/accounts/connect", { platform: "bluesky" });

    const writes: { method: string; path: string; route: string; body?: unknown; raw?: BodyInit }[] = [
      {
        method: "POST",
        path: "/posts",
        route: "/posts",
        body: { caption: "Draft", platforms: ["x"], draft: true },
      },
      {
        method: "POST",
        path: "/posts",
        route: "/posts",
        body: { caption: "Later", platforms: ["x"], schedule_at: later },
      },
      {
        method: "POST",
        path: "/posts",
        route: "/posts",
        body: { caption: "Now", platforms: ["x", "bluesky"] },
      },
      {
        method: "POST",
        path: "/schedule",
        route: "/schedule",
        body: { caption: "Slot", platforms: ["x"], at: "next" },
      },
      {
        method: "POST",
        path: `/posts/${await draft("Publish me")}/publish`,
        route: "/posts/{id}/publish",
        body: {},
      },
      {
        method: "POST",
        path: `/posts/${await draft("Schedule me")}/publish`,
        route: "/posts/{id}/publish",
        body: { schedule_at: later },
      },
      { method: "POST", path: `/posts/${halfOut}/retry`, route: "/posts/{id}/retry" },
      { method: "DELETE", path: `/posts/${deleteMe}`, route: "/posts/{id}" },
      {
        method: "POST",
        path: "/accounts/connect",
        route: "/accounts/connect",
        body: { platform: "threads" },
      },
      { method: "POST", path: "/accounts/connect", route: "/accounts/connect", body: { platform: "x" } },
      { method: "DELETE", path: "/accounts/bluesky", route: "/accounts/{platform}" },
      {
        method: "POST",
        path: "/sandbox/accounts/x",
        route: "/sandbox/accounts/{platform}",
        body: { health: "expiring" },
      },
      {
        method: "POST",
        path: "/sandbox/metrics",
        route: "/sandbox/metrics",
        body: { post_id: published, platform: "x", reach: 40, likes: 4 },
      },
      { method: "POST", path: "/media", route: "/media", body: { url: "https://cdn.example.com/a.png" } },
      { method: "POST", path: "/media", route: "/media", raw: png },
      { method: "POST", path: "/webhooks", route: "/webhooks", body: { url: "http://127.0.0.1:9/other" } },
      { method: "POST", path: `/webhooks/${webhook}/test`, route: "/webhooks/{id}/test", body: {} },
      {
        method: "POST",
        path: `/webhooks/${webhook}/events/${eventId}/resend`,
        route: "/webhooks/{id}/events/{event_id}/resend",
      },
      { method: "DELETE", path: `/webhooks/${goodbye}`, route: "/webhooks/{id}" },
      { method: "DELETE", path: `/keys/${revokeMe}`, route: "/keys/{id}" },
      {
        method: "PATCH",
        path: `/posts/${await draft("Edit me")}`,
        route: "/posts/{id}",
        body: { caption: "Edited", captions: { x: "Edited for X" }, schedule_at: later },
      },
    ];
    const keyed = ROUTES.filter(takesIdempotencyKey);
    expect(new Set(writes.map((w) => `${w.method} ${w.route}`))).toEqual(
      new Set(keyed.map((r) => `${r.method} ${r.path}`)),
    );

    for (const [i, write] of writes.entries()) {
      const name = `${write.method} ${write.path}`;
      const headers: Record<string, string> = { "idempotency-key": `write-${i}` };
      if (write.raw) headers["content-type"] = "image/png";
      const send = () =>
        user.request(write.method, write.path, {
          headers,
          ...(write.raw ? { rawBody: write.raw } : write.body !== undefined && { body: write.body }),
        });
      const first = await send();
      expect(first.status, `${name}: ${first.text}`).toBeLessThan(300);
      const state = await snapshot(target.store, user.id);
      const again = await send();
      expect(again.headers.get("idempotent-replayed"), name).toBe("true");
      expect([again.status, again.text], name).toEqual([first.status, first.text]);
      expect(await snapshot(target.store, user.id), name).toEqual(state);
    }
    await target.close();
  });

  it("a keyed publish-now whose outcome write fails once writes it again: one post, published once, and the retry replays it", async () => {
    const { memory, service, user, target } = await setup();
    await service.start();
    const finish = memory.finishTargets.bind(memory);
    let failures = 1;
    memory.finishTargets = async (...args) => {
      if (failures-- > 0) throw new Error("database is locked");
      return finish(...args);
    };
    const headers = { "idempotency-key": "announce-v2" };
    const body = { caption: "v2 is out", platforms: ["x"] };
    const first = await user.post("/posts", body, { headers });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ caption: "v2 is out", status: "published" });
    const again = await user.post("/posts", body, { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const posts = await memory.listPosts(user.id, { limit: 10 });
    expect(posts.map((p) => [p.id, p.status])).toEqual([[first.body.id, "published"]]);
    expect((await memory.listEvents(user.id)).filter((e) => e.type === "post.published")).toHaveLength(1);
    await target.close();
  });

  it("a key left in flight by a request that changed nothing is free again once the service restarts", async () => {
    const { memory, clock, user, target } = await setup();
    const body = { caption: "Cut off", platforms: ["x"] };
    const headers = { "idempotency-key": "cut-off" };
    // What the crashed request left: its claim, and no post.
    await memory.beginIdempotentRequest({
      user_id: user.id,
      key: "cut-off",
      fingerprint: "POST /api/v1/posts (the crashed request)",
      status: null,
      body: null,
      created_at: clock.now(),
      expires_at: clock.now() + 300_000,
    });
    expect((await user.post("/posts", body, { headers })).status).toBe(409);
    const restarted = createService({ store: memory, clock, logger: silentLogger });
    await restarted.start();
    const afterRestart = new ApiUser({ ...target, fetch: (r) => restarted.fetch(r) }, user.provisioned);
    const res = await afterRestart.post("/posts", body, { headers });
    expect(res.status).toBe(201);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect((await memory.listPosts(user.id, { limit: 10 })).map((p) => p.id)).toEqual([res.body.id]);
    await restarted.close();
    await target.close();
  });
});
