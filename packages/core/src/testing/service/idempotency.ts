import { describe, expect, it } from "vitest";
import type { Harness } from "./harness.ts";

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
