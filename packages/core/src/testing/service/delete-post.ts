import { describe, expect, it } from "vitest";
import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import type { Harness } from "./harness.ts";

export function deletePostTests(h: Harness): void {
  describe("DELETE /posts/{id}", () => {
    it("draft → removed: 200 { deleted: true, id } and the post is gone", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "draft", platforms: ["x"], draft: true });
      const res = await user.delete(`/posts/${post.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: true, id: post.id });
      expect((await user.get(`/posts/${post.id}`)).status).toBe(404);
    });

    // Sandbox only: counts every event, and each live connect sends account.connected first.
    it.skipIf(h.live)("scheduled → cancelled: the post never publishes", async () => {
      const user = await h.user();
      const post = await user.createPost({
        caption: "never",
        platforms: ["x"],
        schedule_at: h.clock.now() + 60_000,
      });
      expect((await user.delete(`/posts/${post.id}`)).body).toEqual({ deleted: true, id: post.id });
      await h.clock.advance(3_600_000);
      expect((await user.get(`/posts/${post.id}`)).status).toBe(404);
      expect((await user.get("/posts")).body.data).toEqual([]);
      const types = (await h.store.listEvents(user.id)).map((e) => e.type);
      expect(types).toEqual(["post.scheduled", "post.deleted"]);
    });

    it("published → record removed (the post stays on the networks)", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "out there", platforms: ["x"] });
      expect((await user.delete(`/posts/${post.id}`)).body).toEqual({ deleted: true, id: post.id });
      expect((await user.get(`/posts/${post.id}`)).status).toBe(404);
    });

    it("post.deleted names the status the post had", async () => {
      const user = await h.user();
      const draft = await user.createPost({ caption: "d", platforms: ["x"], draft: true });
      const scheduled = await user.createPost({
        caption: "s",
        platforms: ["x"],
        schedule_at: h.clock.now() + 60_000,
      });
      const published = await user.createPost({ caption: "p", platforms: ["x"] });
      for (const p of [draft, scheduled, published]) await user.delete(`/posts/${p.id}`);
      const deleted = (await h.store.listEvents(user.id))
        .filter((e) => e.type === "post.deleted")
        .map((e) => e.data);
      expect(deleted).toEqual([
        { post_id: draft.id, previous_status: "draft" },
        { post_id: scheduled.id, previous_status: "scheduled" },
        { post_id: published.id, previous_status: "published" },
      ]);
    });

    it("a second DELETE of the same post answers 404 Post not found.", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "once", platforms: ["x"] });
      await user.delete(`/posts/${post.id}`);
      const res = await user.delete(`/posts/${post.id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: CONTRACT_MESSAGES.postNotFound });
    });

    // Sandbox only: counts every event, and each live connect sends account.connected first.
    it.skipIf(h.live)(
      "DELETE wins against the scheduler when it comes first: the post never publishes and no post.published appears",
      async () => {
        const user = await h.user();
        const post = await user.createPost({
          caption: "race",
          platforms: ["x"],
          schedule_at: h.clock.now() + 1000,
        });
        // The scheduler has claimed the post (publishing) when the DELETE arrives.
        await h.store.claimDuePosts(h.clock.now() + 1000, 10);
        const res = await user.delete(`/posts/${post.id}`);
        expect(res.body).toEqual({ deleted: true, id: post.id });
        await h.clock.advance(60_000);
        expect((await user.get(`/posts/${post.id}`)).status).toBe(404);
        const events = await h.store.listEvents(user.id);
        expect(events.map((e) => e.type)).toEqual(["post.scheduled", "post.deleted"]);
        expect(events[1]!.data).toEqual({ post_id: post.id, previous_status: "publishing" });
      },
    );

    // Sandbox only: counts every event, and each live connect sends account.connected first.
    it.skipIf(h.live)("when the scheduler publishes first, DELETE removes the published record", async () => {
      const user = await h.user();
      const post = await user.createPost({
        caption: "race",
        platforms: ["x"],
        schedule_at: h.clock.now() + 1000,
      });
      await h.clock.advance(1000);
      expect((await user.delete(`/posts/${post.id}`)).body).toEqual({ deleted: true, id: post.id });
      const types = (await h.store.listEvents(user.id)).map((e) => e.type);
      expect(types).toEqual(["post.scheduled", "post.published", "post.deleted"]);
    });
  });
}
