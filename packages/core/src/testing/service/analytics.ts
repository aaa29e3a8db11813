import { describe, expect, it } from "vitest";
import { Account, Analytics } from "../../contract/resources.ts";
import { type Harness, keysOf } from "./harness.ts";

export function accountsAndAnalyticsTests(h: Harness): void {
  describe("GET /accounts", () => {
    it("answers the connected accounts only, in the contract's network order, with exactly the contract's fields", async () => {
      const user = await h.user({
        accounts: [
          { platform: "telegram", handle: "acme_news", followers: 10 },
          { platform: "x", handle: "acme", followers: 1200, health: "expiring" },
          { platform: "tiktok", handle: "acme.tt", followers: 5, health: "reauth_required" },
        ],
      });
      const res = await user.get("/accounts");
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["data"]);
      expect(res.body.data).toEqual([
        { platform: "tiktok", handle: "acme.tt", followers: 5, health: "reauth_required" },
        { platform: "x", handle: "acme", followers: 1200, health: "expiring" },
        { platform: "telegram", handle: "acme_news", followers: 10, health: "healthy" },
      ]);
      for (const account of res.body.data) {
        expect(Account.parse(account)).toEqual(account);
        expect(keysOf(account)).toEqual(["followers", "handle", "health", "platform"]);
      }
    });

    it("a user without connected accounts gets an empty list, and never another user's", async () => {
      await h.user({ accounts: ["x"] });
      const lonely = await h.user({ accounts: [] });
      expect((await lonely.get("/accounts")).body).toEqual({ data: [] });
    });
  });

  describe("GET /analytics", () => {
    it("answers zeros until networks report, with camelCase fields and one row per connected network", async () => {
      const user = await h.user({
        accounts: [
          { platform: "x", followers: 100 },
          { platform: "bluesky", followers: 50 },
        ],
      });
      const res = await user.get("/analytics");
      expect(res.status).toBe(200);
      expect(Analytics.parse(res.body)).toEqual(res.body);
      expect(keysOf(res.body)).toEqual([
        "engagementRate",
        "followers",
        "perPlatform",
        "postsPublished",
        "totalReach",
      ]);
      expect(res.body).toEqual({
        totalReach: 0,
        engagementRate: 0,
        postsPublished: 0,
        followers: 150,
        perPlatform: [
          { platform: "x", reach: 0, engagementRate: 0 },
          { platform: "bluesky", reach: 0, engagementRate: 0 },
        ],
      });
    });

    it("sums reported figures over published posts, per network and in total", async () => {
      const user = await h.user({ accounts: ["x", "bluesky", "linkedin"] });
      const a = await user.createPost({ caption: "A", platforms: ["x", "bluesky"] });
      const b = await user.createPost({ caption: "B", platforms: ["x"] });
      await user.createPost({ caption: "C", platforms: ["x"], schedule_at: h.clock.now() + 3_600_000 });
      await user.createPost({ caption: "D", platforms: ["x"], draft: true });
      const report = (
        post_id: string,
        platform: string,
        reach: number,
        likes: number,
        comments = 0,
        shares = 0,
      ) => user.post("/sandbox/metrics", { post_id, platform, reach, likes, comments, shares });
      await report(a.id, "x", 1000, 30, 10, 10);
      await report(a.id, "bluesky", 500, 5);
      await report(b.id, "x", 300, 3);
      const res = await user.get("/analytics");
      expect(res.body).toEqual({
        totalReach: 1800,
        // (50 + 5 + 3) / 1800 × 100 = 3.222…
        engagementRate: 3.22,
        postsPublished: 2,
        followers: 0,
        perPlatform: [
          // (50 + 3) / 1300 × 100 = 4.0769…
          { platform: "x", reach: 1300, engagementRate: 4.08 },
          { platform: "linkedin", reach: 0, engagementRate: 0 },
          { platform: "bluesky", reach: 500, engagementRate: 1 },
        ],
      });
    });

    it("a deleted post no longer counts", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Gone", platforms: ["x"] });
      await user.post("/sandbox/metrics", { post_id: post.id, platform: "x", reach: 10, likes: 1 });
      await user.delete(`/posts/${post.id}`);
      expect((await user.get("/analytics")).body).toMatchObject({ totalReach: 0, postsPublished: 0 });
    });

    it("counts only the caller's posts", async () => {
      const alice = await h.user();
      const bob = await h.user();
      const post = await alice.createPost({ caption: "Mine", platforms: ["x"] });
      await alice.post("/sandbox/metrics", { post_id: post.id, platform: "x", reach: 10 });
      expect((await bob.get("/analytics")).body).toMatchObject({ totalReach: 0, postsPublished: 0 });
    });
  });
}
