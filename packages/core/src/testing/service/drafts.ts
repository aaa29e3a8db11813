import { describe, expect, it } from "vitest";
import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import type { Harness } from "./harness.ts";

export function draftTests(h: Harness): void {
  describe("drafts", () => {
    it('"draft": true creates a draft: no fan-out, no schedule, targets pending', async () => {
      const user = await h.user();
      const res = await user.post("/posts", { caption: "Think", platforms: ["x", "bluesky"], draft: true });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        status: "draft",
        scheduled_at: null,
        published_at: null,
        platforms: ["x", "bluesky"],
      });
      const targets = (await user.get(`/posts/${res.body.id}/targets`)).body.data;
      expect(targets.map((t: { status: string }) => t.status)).toEqual(["pending", "pending"]);
    });

    it("a draft never publishes on its own", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Still", platforms: ["x"], draft: true });
      await h.clock.advance(30 * 86_400_000);
      expect((await user.get(`/posts/${post.id}`)).body.status).toBe("draft");
    });

    it("a draft with schedule_at answers 400: a draft has no schedule", async () => {
      const user = await h.user();
      const res = await user.post("/posts", {
        caption: "Both",
        platforms: ["x"],
        draft: true,
        schedule_at: h.clock.now() + 60_000,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: "A draft has no schedule: send draft: true or schedule_at, not both.",
      });
    });

    // Sandbox only: uses networks or account states the live peers do not offer.
    it.skipIf(h.live)(
      "a draft follows the same rules as any post: connected networks, not empty, media where needed",
      async () => {
        const user = await h.user({ accounts: ["x", "instagram"] });
        expect(
          (await user.post("/posts", { caption: "Hi", platforms: ["bluesky"], draft: true })).body,
        ).toEqual({
          error: CONTRACT_MESSAGES.noConnectedNetwork,
        });
        expect((await user.post("/posts", { platforms: ["x"], draft: true })).status).toBe(400);
        expect(
          (await user.post("/posts", { caption: "Hi", platforms: ["instagram"], draft: true })).status,
        ).toBe(400);
      },
    );

    it('"draft": false behaves as if omitted', async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Go", platforms: ["x"], draft: false });
      expect(post.status).toBe("published");
    });
  });

  describe("POST /posts/{id}/publish", () => {
    // Sandbox only: counts every event, and each live connect sends account.connected first.
    it.skipIf(h.live)(
      "publishes a draft now: 200, status published, published_at set, targets published",
      async () => {
        const user = await h.user();
        const draft = await user.createPost({ caption: "Ready", platforms: ["x", "bluesky"], draft: true });
        await h.clock.advance(5000);
        const res = await user.request("POST", `/posts/${draft.id}/publish`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          id: draft.id,
          status: "published",
          published_at: h.clock.now(),
          scheduled_at: null,
        });
        const targets = (await user.get(`/posts/${draft.id}/targets`)).body.data;
        expect(targets.map((t: { status: string }) => t.status)).toEqual(["published", "published"]);
        expect((await h.store.listEvents(user.id)).map((e) => e.type)).toEqual([
          "post.published",
          "post.published",
        ]);
      },
    );

    it("schedules a draft with schedule_at, which then publishes at its due time", async () => {
      const user = await h.user();
      const draft = await user.createPost({ caption: "Later", platforms: ["x"], draft: true });
      const due = h.clock.now() + 3_600_000;
      const res = await user.post(`/posts/${draft.id}/publish`, { schedule_at: due });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "scheduled", scheduled_at: due, published_at: null });
      await h.clock.advance(3_600_000);
      expect((await user.get(`/posts/${draft.id}`)).body).toMatchObject({
        status: "published",
        published_at: due,
      });
    });

    // Sandbox only: uses networks or account states the live peers do not offer.
    it.skipIf(h.live)("retries a post that went back to draft once its account is reconnected", async () => {
      const user = await h.user({ accounts: [{ platform: "x", health: "reauth_required", handle: "acme" }] });
      const failed = await user.createPost({ caption: "Retry", platforms: ["x"] });
      expect(failed.status).toBe("draft");
      const [account] = await h.store.listAccounts(user.id, "test");
      await h.store.putAccount({ ...account!, health: "healthy" });
      const res = await user.request("POST", `/posts/${failed.id}/publish`);
      expect(res.body.status).toBe("published");
      const [target] = (await user.get(`/posts/${failed.id}/targets`)).body.data;
      expect(target).toMatchObject({ status: "published", error: null });
    });

    it("a post that is not a draft answers 409; another user's or an unknown post 404", async () => {
      const user = await h.user();
      const other = await h.user();
      const published = await user.createPost({ caption: "Done", platforms: ["x"] });
      const res = await user.request("POST", `/posts/${published.id}/publish`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: "Only a draft can be published; this post is published." });
      const draft = await user.createPost({ caption: "Mine", platforms: ["x"], draft: true });
      expect((await other.request("POST", `/posts/${draft.id}/publish`)).body).toEqual({
        error: CONTRACT_MESSAGES.postNotFound,
      });
    });

    it("a schedule_at in the past answers 400 and leaves the draft as it was", async () => {
      const user = await h.user();
      const draft = await user.createPost({ caption: "Late", platforms: ["x"], draft: true });
      const res = await user.post(`/posts/${draft.id}/publish`, { schedule_at: h.clock.now() - 120_000 });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^schedule_at .* is in the past/);
      expect((await user.get(`/posts/${draft.id}`)).body.status).toBe("draft");
    });
  });

  describe("media-required networks", () => {
    // Sandbox only: uses networks or account states the live peers do not offer.
    it.skipIf(h.live)(
      "instagram, pinterest, tiktok and youtube without media answer 400 naming each network and the fix; nothing is created",
      async () => {
        const user = await h.user({ accounts: ["x", "instagram", "pinterest", "tiktok", "youtube"] });
        for (const platform of ["instagram", "pinterest", "tiktok", "youtube"]) {
          const res = await user.post("/posts", { caption: "Text only", platforms: ["x", platform] });
          expect(res.status).toBe(400);
          expect(res.body).toEqual({
            error: `${platform} needs media: add media (an image or video URL, or a med_ id), or remove it from platforms.`,
          });
        }
        const res = await user.post("/posts", {
          caption: "Text only",
          platforms: ["youtube", "x", "tiktok"],
        });
        expect(res.body).toEqual({
          error:
            "youtube and tiktok need media: add media (an image or video URL, or a med_ id), or remove them from platforms.",
        });
        expect((await user.get("/posts")).body.data).toEqual([]);
      },
    );

    // Sandbox only: uses networks or account states the live peers do not offer.
    it.skipIf(h.live)("with media, media-required networks publish", async () => {
      const user = await h.user({ accounts: ["instagram", "tiktok"] });
      const post = await user.createPost({
        caption: "Clip",
        platforms: ["instagram", "tiktok"],
        media: "https://example.com/v.mp4",
      });
      expect(post).toMatchObject({ status: "published", has_media: true });
    });

    it("a media-required network that is not connected is dropped, not refused", async () => {
      const user = await h.user({ accounts: ["x"] });
      const post = await user.createPost({ caption: "Text", platforms: ["x", "instagram"] });
      expect(post.platforms).toEqual(["x"]);
    });
  });
}
