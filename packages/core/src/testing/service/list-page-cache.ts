import { describe, expect, it } from "vitest";
import type { ApiUser, Harness, Json } from "./harness.ts";

const PAGE = "/posts?limit=100";

/**
 * GET /posts serves a page it kept while the user's posts are unchanged (list-page-cache.ts). Each
 * kind of write must show in the very next page: every check below reads the page twice first, so the
 * cached copy exists before the write.
 */
export function listPageCacheTests(h: Harness): void {
  const cachedPage = async (user: ApiUser): Promise<Json[]> => {
    const first = await user.get(PAGE);
    const again = await user.get(PAGE);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    return again.body.data;
  };

  describe("GET /posts after each kind of write", () => {
    it("create, PATCH, publish, metrics and delete each show in the next page", async () => {
      const user = await h.user();
      expect(await cachedPage(user)).toEqual([]);

      const draft = await user.createPost({ caption: "first", platforms: ["x"], draft: true });
      expect((await cachedPage(user)).map((p) => p.id)).toEqual([draft.id]);

      expect((await user.patch(`/posts/${draft.id}`, { caption: "edited" })).status).toBe(200);
      expect((await cachedPage(user))[0]).toMatchObject({ id: draft.id, caption: "edited", status: "draft" });

      expect((await user.request("POST", `/posts/${draft.id}/publish`)).status).toBe(200);
      expect((await cachedPage(user))[0]).toMatchObject({ id: draft.id, status: "published", reach: 0 });

      const metrics = { post_id: draft.id, platform: "x", reach: 50, likes: 1, comments: 0, shares: 0 };
      expect((await user.post("/sandbox/metrics", metrics)).status).toBe(200);
      expect((await cachedPage(user))[0]).toMatchObject({ id: draft.id, reach: 50, engagement_rate: 2 });

      const scheduled = await user.createPost({
        caption: "later",
        platforms: ["x"],
        schedule_at: h.clock.now() + 60_000,
      });
      expect((await cachedPage(user)).map((p) => [p.id, p.status])).toEqual([
        [scheduled.id, "scheduled"],
        [draft.id, "published"],
      ]);
      // Published by the scheduler, not by a request.
      await h.clock.advance(120_000);
      await expect.poll(async () => (await user.get(PAGE)).body.data[0].status).toBe("published");

      expect((await user.delete(`/posts/${draft.id}`)).status).toBe(200);
      expect((await cachedPage(user)).map((p) => p.id)).toEqual([scheduled.id]);
    });

    it("a change written to the store directly, not through a request, shows in the next page", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "seen", platforms: ["x"] });
      expect((await cachedPage(user))[0]).toMatchObject({ reach: 0 });
      await h.store.reportMetrics(post.id, "x", { reach: 10, likes: 1, comments: 0, shares: 0 });
      expect((await cachedPage(user))[0]).toMatchObject({ reach: 10, engagement_rate: 10 });
    });

    it("GET /posts/{id} shows each write in the next answer, and another user's id stays unknown", async () => {
      const user = await h.user();
      const other = await h.user();
      const cachedPost = async (id: string) => {
        const first = await user.get(`/posts/${id}`);
        const again = await user.get(`/posts/${id}`);
        expect(again.status).toBe(200);
        expect(again.text).toBe(first.text);
        return again.body;
      };
      const draft = await user.createPost({ caption: "first", platforms: ["x"], draft: true });
      expect(await cachedPost(draft.id)).toMatchObject({ caption: "first", status: "draft" });
      expect((await other.get(`/posts/${draft.id}`)).status).toBe(404);
      expect((await user.patch(`/posts/${draft.id}`, { caption: "edited" })).status).toBe(200);
      expect(await cachedPost(draft.id)).toMatchObject({ caption: "edited" });
      expect((await user.request("POST", `/posts/${draft.id}/publish`)).status).toBe(200);
      expect(await cachedPost(draft.id)).toMatchObject({ status: "published", reach: 0 });
      // Metrics read from a network, written to the store directly (as the metrics reader does).
      await h.store.reportMetrics(draft.id, "x", { reach: 10, likes: 1, comments: 0, shares: 0 });
      expect(await cachedPost(draft.id)).toMatchObject({ reach: 10, engagement_rate: 10 });
      expect((await user.delete(`/posts/${draft.id}`)).status).toBe(200);
      expect((await user.get(`/posts/${draft.id}`)).status).toBe(404);
      expect((await other.get(`/posts/${draft.id}`)).status).toBe(404);
    });

    it("each user gets their own page for the same URL", async () => {
      const alice = await h.user();
      const bob = await h.user();
      const post = await alice.createPost({ caption: "alice's", platforms: ["x"] });
      expect((await cachedPage(alice)).map((p) => p.id)).toEqual([post.id]);
      expect(await cachedPage(bob)).toEqual([]);
      const bobs = await bob.createPost({ caption: "bob's", platforms: ["x"] });
      expect((await cachedPage(bob)).map((p) => p.id)).toEqual([bobs.id]);
      expect((await cachedPage(alice)).map((p) => p.id)).toEqual([post.id]);
    });
  });
}
