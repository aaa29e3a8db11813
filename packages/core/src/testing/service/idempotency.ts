import { describe, expect, it } from "vitest";
import { takesIdempotencyKey } from "../../service/idempotency.ts";
import { ROUTES } from "../../service/routes/index.ts";
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

    it("requests sent together with one key publish once: the others answer 409 or replay the one post", async () => {
      const user = await h.user();
      const body = { caption: "Together", platforms: ["x", "bluesky"] };
      const headers = { "idempotency-key": "sent-twice" };
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => user.post("/posts", body, { headers })),
      );
      const made = answers.filter((a) => a.status === 201 && a.headers.get("idempotent-replayed") === null);
      expect(made).toHaveLength(1);
      for (const a of answers) {
        if (a === made[0]) continue;
        if (a.status === 201) expect(a.body.id).toBe(made[0]!.body.id);
        else expect(a.status).toBe(409);
      }
      expect((await user.get("/posts")).body.data).toHaveLength(1);
      expect((await h.store.listEvents(user.id)).filter((e) => e.type === "post.published")).toHaveLength(2);
      // The key is free to replay once the first has answered.
      const again = await user.post("/posts", body, { headers });
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body.id).toBe(made[0]!.body.id);
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

    // Sandbox only: connects a sandbox account with a test key's connect.
    it.skipIf(h.live)(
      "an error answer is not kept: fixing the cause and retrying with the same key makes the change, once",
      async () => {
        const user = await h.user({ accounts: ["x"] });
        const headers = { "idempotency-key": "after-connecting-reddit" };
        const body = { caption: "Release notes", platforms: ["reddit"] };
        const first = await user.post("/posts", body, { headers });
        expect(first.status).toBe(400);
        expect(first.body).toEqual({ error: "Select at least one connected network." });
        // Sent again unchanged, it runs again (no replay of the refusal).
        const again = await user.post("/posts", body, { headers });
        expect(again.status).toBe(400);
        expect(again.headers.get("idempotent-replayed")).toBeNull();
        expect((await user.post("/accounts/connect", { platform: "reddit" })).status).toBe(201);
        const fixed = await user.post("/posts", body, { headers });
        expect(fixed.status).toBe(201);
        expect(fixed.headers.get("idempotent-replayed")).toBeNull();
        expect(fixed.body).toMatchObject({ status: "published", platforms: ["reddit"] });
        // Now the key holds the change: a retry replays it and publishes nothing more.
        const replay = await user.post("/posts", body, { headers });
        expect(replay.headers.get("idempotent-replayed")).toBe("true");
        expect(replay.body).toEqual(fixed.body);
        expect((await user.get("/posts")).body.data).toHaveLength(1);
        expect((await h.store.listEvents(user.id)).filter((e) => e.type === "post.published")).toHaveLength(
          1,
        );
      },
    );

    // Sandbox only: uses networks or account states the live peers do not offer.
    it.skipIf(h.live)("after an error answer the key is free for a corrected request: no 422", async () => {
      const user = await h.user({ accounts: ["x", "instagram"] });
      const headers = { "idempotency-key": "add-the-media" };
      const bare = await user.post("/posts", { caption: "Look", platforms: ["instagram"] }, { headers });
      expect(bare.status).toBe(400);
      const withMedia = { caption: "Look", platforms: ["instagram"], media: "https://cdn.example.com/a.png" };
      const fixed = await user.post("/posts", withMedia, { headers });
      expect(fixed.status).toBe(201);
      expect(fixed.headers.get("idempotent-replayed")).toBeNull();
      // Once the change is made, the first (refused) request is a different request under a used key.
      const other = await user.post("/posts", { caption: "Look", platforms: ["instagram"] }, { headers });
      expect(other.status).toBe(422);
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

    it("every operation that takes a key (POST, DELETE, PATCH /posts/{id}) keeps no error answer: the same key and request run again", async () => {
      const user = await h.user();
      const writes = ROUTES.filter(takesIdempotencyKey);
      expect(writes.length).toBeGreaterThanOrEqual(10);
      for (const route of writes) {
        const name = `${route.method} ${route.path}`;
        // Unknown ids and a body of the wrong shape: every operation refuses these.
        const path = route.path.replace(/\{\w+\}/g, "unknown_1");
        const send = () =>
          user.request(route.method, path, {
            ...(route.body ? { rawBody: JSON.stringify({ n: 1 }) } : {}),
            headers: { "idempotency-key": `generic ${name}`, "content-type": "application/json" },
          });
        const first = await send();
        expect(first.status, name).toBeGreaterThanOrEqual(400);
        const again = await send();
        expect(again.status, name).toBe(first.status);
        expect(again.text, name).toBe(first.text);
        expect(again.headers.get("idempotent-replayed"), name).toBeNull();
      }
    });

    // Sandbox only: connects a sandbox account with a test key's connect.
    it.skipIf(h.live)("a replayed write runs nothing again: no second record, no second event", async () => {
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

    // Sandbox only: counts API calls, and the live connects are calls too.
    it.skipIf(h.live)("GET ignores Idempotency-Key", async () => {
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
