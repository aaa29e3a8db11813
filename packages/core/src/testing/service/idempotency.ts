import { describe, expect, it } from "vitest";
import { ROUTES } from "../../service/routes.ts";
import type { ApiUser, Harness } from "./harness.ts";

const DAY = 86_400_000;

export function idempotencyTests(h: Harness): void {
  describe("Idempotency-Key", () => {
    it("a retry with the same key and request replays the stored status and body, with Idempotent-Replayed: true, and creates nothing", async () => {
      const user = await h.user();
      const body = { caption: "Once", platforms: ["x"] };
      const headers = { "idempotency-key": "release-v1.2.3" };
      const first = await user.post("/posts", body, { headers });
      expect(first.status).toBe(201);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      await h.clock.advance(60_000);
      const again = await user.post("/posts", body, { headers });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect((await user.get("/posts")).body.data).toHaveLength(1);
      expect((await h.store.listEvents(user.id)).filter((e) => e.type === "post.published")).toHaveLength(1);
    });

    it("the same key on a different request answers 422", async () => {
      const user = await h.user();
      const headers = { "idempotency-key": "k-1" };
      await user.post("/posts", { caption: "A", platforms: ["x"] }, { headers });
      const res = await user.post("/posts", { caption: "B", platforms: ["x"] }, { headers });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: "This Idempotency-Key was used for a different request; send a new key with a new request.",
      });
      const other = await user.delete(`/posts/${(await user.get("/posts")).body.data[0].id}`, { headers });
      expect(other.status).toBe(422);
    });

    it("the same key while the first request is still in flight answers 409, and is not kept", async () => {
      const user = await h.user();
      // A first request that has claimed the key and not answered yet.
      await h.store.beginIdempotentRequest({
        user_id: user.id,
        key: "busy",
        fingerprint: "POST /api/v1/posts (in flight)",
        status: null,
        body: null,
        created_at: h.clock.now(),
        expires_at: h.clock.now() + 300_000,
      });
      const headers = { "idempotency-key": "busy" };
      const res = await user.post("/posts", { caption: "Hi", platforms: ["x"] }, { headers });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: "A request with this Idempotency-Key is still in progress; retry it shortly.",
      });
      expect((await user.get("/posts")).body.data).toEqual([]);
      // A claim left by a request that never answered frees the key after five minutes.
      await h.clock.advance(300_000);
      expect((await user.post("/posts", { caption: "Hi", platforms: ["x"] }, { headers })).status).toBe(201);
    });

    it("refusals with 400 are kept and replayed too; the key answers the same until it expires", async () => {
      const user = await h.user();
      const headers = { "idempotency-key": "bad-post" };
      const first = await user.post("/posts", { platforms: ["mastodon"] }, { headers });
      expect(first.status).toBe(400);
      const again = await user.post("/posts", { platforms: ["mastodon"] }, { headers });
      expect(again.status).toBe(400);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
    });

    it("DELETE with a key replays 200 { deleted: true } rather than 404", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Bye", platforms: ["x"] });
      const headers = { "idempotency-key": `delete-${post.id}` };
      const first = await user.delete(`/posts/${post.id}`, { headers });
      const again = await user.delete(`/posts/${post.id}`, { headers });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
    });

    it("keys are scoped to the user: another user's same key is a new request", async () => {
      const alice = await h.user();
      const bob = await h.user();
      const headers = { "idempotency-key": "shared-name" };
      const a = await alice.post("/posts", { caption: "A", platforms: ["x"] }, { headers });
      const b = await bob.post("/posts", { caption: "B", platforms: ["x"] }, { headers });
      expect(b.status).toBe(201);
      expect(b.headers.get("idempotent-replayed")).toBeNull();
      expect(b.body.id).not.toBe(a.body.id);
    });

    it("a key is kept 24 hours; after that it may be used again", async () => {
      const user = await h.user();
      const headers = { "idempotency-key": "daily" };
      const body = { caption: "Daily", platforms: ["x"] };
      const first = await user.post("/posts", body, { headers });
      await h.clock.advance(DAY - 1);
      expect((await user.post("/posts", body, { headers })).body.id).toBe(first.body.id);
      await h.clock.advance(1);
      const fresh = await user.post("/posts", body, { headers });
      expect(fresh.status).toBe(201);
      expect(fresh.body.id).not.toBe(first.body.id);
    });

    it("a 429 is not kept: the retry runs once the limit allows", async () => {
      const user = await h.user({ plan: "studio", accounts: ["x"] });
      for (let i = 0; i < 600; i++) await user.get("/accounts");
      const headers = { "idempotency-key": "after-limit" };
      const body = { caption: "Later", platforms: ["x"] };
      expect((await user.post("/posts", body, { headers })).status).toBe(429);
      await h.clock.advance(60_000);
      const res = await user.post("/posts", body, { headers });
      expect(res.status).toBe(201);
      expect(res.headers.get("idempotent-replayed")).toBeNull();
    });

    it("a key that is not 1 to 255 printable ASCII characters answers 400", async () => {
      const user = await h.user();
      for (const key of ["x".repeat(256), "tab\there"]) {
        const res = await user.post(
          "/posts",
          { caption: "Hi", platforms: ["x"] },
          { headers: { "idempotency-key": key } },
        );
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: "Idempotency-Key must be 1 to 255 printable ASCII characters." });
      }
    });

    it("every POST and DELETE operation honours Idempotency-Key: replay, and 422 for a different request", async () => {
      const user = await h.user();
      const writes = ROUTES.filter((r) => r.auth && (r.method === "POST" || r.method === "DELETE"));
      expect(writes.length).toBeGreaterThanOrEqual(10);
      for (const route of writes) {
        const name = `${route.method} ${route.path}`;
        const path = (param: string) => route.path.replace(/\{\w+\}/g, param);
        const body = (n: number) => (route.body ? { rawBody: JSON.stringify({ n }) } : {});
        const send = (p: string, n: number) =>
          user.request(route.method, p, {
            ...body(n),
            headers: { "idempotency-key": `generic ${name}`, "content-type": "application/json" },
          });
        const first = await send(path("unknown_1"), 1);
        expect(first.status, name).toBeGreaterThanOrEqual(200);
        expect([401, 409, 429]).not.toContain(first.status);
        const again = await send(path("unknown_1"), 1);
        expect(again.status, name).toBe(first.status);
        expect(again.text, name).toBe(first.text);
        expect(again.headers.get("idempotent-replayed"), name).toBe("true");
        const other = route.body ? await send(path("unknown_1"), 2) : await send(path("unknown_2"), 1);
        expect(other.status, name).toBe(422);
      }
    });

    it("a replayed write runs nothing again: no second record, no second event", async () => {
      const user = await h.user({ accounts: ["x", "bluesky"] });
      const draft = await user.createPost({ caption: "Later", platforms: ["x"], draft: true });
      const published = await user.createPost({ caption: "Now", platforms: ["x"] });
      const writes: [string, string, unknown][] = [
        ["POST", "/posts", { caption: "Once", platforms: ["x"] }],
        ["POST", "/schedule", { caption: "Slot", platforms: ["x"], at: "next" }],
        ["POST", `/posts/${draft.id}/publish`, {}],
        ["POST", "/accounts/connect", { platform: "threads" }],
        ["DELETE", "/accounts/bluesky", undefined],
        ["POST", "/media", { url: "https://cdn.example.com/once.png" }],
        ["POST", "/sandbox/metrics", { post_id: published.id, platform: "x", reach: 10 }],
        ["DELETE", `/posts/${published.id}`, undefined],
      ];
      for (const [method, path, body] of writes) {
        const headers = { "idempotency-key": `once ${method} ${path}` };
        const first = await user.request(method, path, { body, headers });
        expect(first.status, `${method} ${path}: ${first.text}`).toBeLessThan(300);
        const state = await snapshot(h, user);
        const again = await user.request(method, path, { body, headers });
        expect(again.headers.get("idempotent-replayed"), `${method} ${path}`).toBe("true");
        expect([again.status, again.text]).toEqual([first.status, first.text]);
        expect(await snapshot(h, user), `${method} ${path}`).toEqual(state);
      }
    });

    it("GET ignores Idempotency-Key", async () => {
      const user = await h.user();
      const headers = { "idempotency-key": "read" };
      await user.get("/me", { headers });
      const res = await user.get("/me", { headers });
      expect(res.headers.get("idempotent-replayed")).toBeNull();
      expect(res.body.usage.api_calls_this_month).toBe(2);
    });
  });
}

/** What a write can change, read back: events, posts with their targets, accounts. */
async function snapshot(h: Harness, user: ApiUser): Promise<unknown> {
  const posts = (await user.get("/posts?limit=100")).body.data;
  const targets = [];
  for (const post of posts) targets.push((await user.get(`/posts/${post.id}/targets`)).body.data);
  return {
    events: (await h.store.listEvents(user.id)).map((e) => e.id),
    posts,
    targets,
    accounts: (await user.get("/accounts")).body.data,
  };
}
