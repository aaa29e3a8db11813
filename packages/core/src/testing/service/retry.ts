import { describe, expect, it } from "vitest";
import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import type { ApiUser, Harness, Json } from "./harness.ts";

/** The post's events of one type, as [platform, …] in the order written. */
async function platformsOf(h: Harness, user: ApiUser, type: string, postId: string): Promise<string[]> {
  const events = await h.store.listEvents(user.id);
  return events
    .filter((e) => e.type === type && (e.data as { post_id?: string }).post_id === postId)
    .map((e) => (e.data as { platform: string }).platform);
}

export function retryTests(h: Harness): void {
  // Sandbox only: a network fails here through the sandbox account's health.
  describe.skipIf(h.live)("POST /posts/{id}/retry", () => {
    it("sends again only the networks that failed, once the account is reconnected: post.published for each, the others untouched", async () => {
      const user = await h.user({ accounts: ["x", "bluesky", "linkedin"] });
      await user.post("/sandbox/accounts/bluesky", { health: "reauth_required" });
      const post = await user.createPost({ caption: "Half out", platforms: ["x", "bluesky", "linkedin"] });
      expect(post.status).toBe("published");
      const before: Json[] = (await user.get(`/posts/${post.id}/targets`)).body.data;
      expect(before.map((t) => t.status)).toEqual(["published", "failed", "published"]);

      // Still disconnected: sent again, and failed again, saying why.
      const still = await user.post(`/posts/${post.id}/retry`);
      expect(still.status, still.text).toBe(200);
      expect(still.body).toMatchObject({ id: post.id, status: "published" });
      expect((await user.get(`/posts/${post.id}/targets`)).body.data[1]).toMatchObject({
        platform: "bluesky",
        status: "failed",
        error: expect.stringContaining("reconnect"),
      });
      expect(await platformsOf(h, user, "post.failed", post.id)).toEqual(["bluesky", "bluesky"]);

      await user.post("/accounts/connect", { platform: "bluesky" });
      const res = await user.post(`/posts/${post.id}/retry`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: post.id, status: "published", published_at: post.published_at });
      const after: Json[] = (await user.get(`/posts/${post.id}/targets`)).body.data;
      expect(after.map((t) => t.status)).toEqual(["published", "published", "published"]);
      expect(after[1]).toMatchObject({ error: null, permalink: expect.any(String), text: before[1].text });
      // The networks that had published are as they were: not sent again.
      expect([after[0], after[2]]).toEqual([before[0], before[2]]);
      expect(await platformsOf(h, user, "post.published", post.id)).toEqual(["x", "linkedin", "bluesky"]);

      // Nothing has failed any more.
      const again = await user.post(`/posts/${post.id}/retry`);
      expect(again.status).toBe(409);
      expect(again.body.error).toMatch(/No network has failed/);
    });

    it("a post that went back to draft because every network failed publishes when retried", async () => {
      const user = await h.user({ accounts: ["x", "bluesky"] });
      await user.post("/sandbox/accounts/x", { health: "reauth_required" });
      await user.post("/sandbox/accounts/bluesky", { health: "reauth_required" });
      const post = await user.createPost({ caption: "Nobody heard", platforms: ["x", "bluesky"] });
      expect(post.status).toBe("draft");
      await user.post("/accounts/connect", { platform: "x" });
      await user.post("/accounts/connect", { platform: "bluesky" });
      const res = await user.post(`/posts/${post.id}/retry`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: post.id, status: "published", published_at: expect.any(Number) });
      const targets: Json[] = (await user.get(`/posts/${post.id}/targets`)).body.data;
      expect(targets.map((t) => [t.platform, t.status])).toEqual([
        ["x", "published"],
        ["bluesky", "published"],
      ]);
      expect(await platformsOf(h, user, "post.published", post.id)).toEqual(["x", "bluesky"]);
    });

    it("answers 409 when no network has failed (a draft, a scheduled or a published post) and 404 for an unknown post", async () => {
      const user = await h.user();
      const draft = await user.createPost({ caption: "Thinking", platforms: ["x"], draft: true });
      const later = await user.createPost({
        caption: "Later",
        platforms: ["x"],
        schedule_at: h.clock.now() + 3_600_000,
      });
      const out = await user.createPost({ caption: "Out", platforms: ["x"] });
      for (const [post, message] of [
        [draft, /No network has failed for this post: it is a draft/],
        [later, /scheduled/],
        [out, /No network has failed/],
      ] as const) {
        const res = await user.post(`/posts/${post.id}/retry`);
        expect([res.status, res.body.error], post.caption).toEqual([409, expect.stringMatching(message)]);
      }
      expect((await user.get(`/posts/${draft.id}`)).body.status).toBe("draft");
      const missing = await user.post("/posts/post_01J00000000000000000000000/retry");
      expect([missing.status, missing.body]).toEqual([404, { error: CONTRACT_MESSAGES.postNotFound }]);
    });

    it("two retries with one Idempotency-Key send the network once; the second replays the first's answer", async () => {
      const user = await h.user({ accounts: ["x", "bluesky"] });
      await user.post("/sandbox/accounts/bluesky", { health: "reauth_required" });
      const post = await user.createPost({ caption: "Once", platforms: ["x", "bluesky"] });
      await user.post("/accounts/connect", { platform: "bluesky" });
      const headers = { "idempotency-key": "retry-once" };
      const first = await user.post(`/posts/${post.id}/retry`, undefined, { headers });
      const second = await user.post(`/posts/${post.id}/retry`, undefined, { headers });
      expect(first.status, first.text).toBe(200);
      expect([second.status, second.text, second.headers.get("idempotent-replayed")]).toEqual([
        200,
        first.text,
        "true",
      ]);
      expect(await platformsOf(h, user, "post.published", post.id)).toEqual(["x", "bluesky"]);
    });
  });
}
