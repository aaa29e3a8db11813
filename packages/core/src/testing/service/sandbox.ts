import { describe, expect, it } from "vitest";
import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import { NETWORK_IDS, type NetworkId } from "../../contract/networks.ts";
import type { ApiUser, Harness } from "./harness.ts";

/** The shape of each network's real post URLs, with the sandbox handle where the URL carries one. */
const PERMALINK: Record<NetworkId, (handle: string) => RegExp> = {
  x: (h) => new RegExp(`^https://x\\.com/${h}/status/[1-9]\\d{18}$`),
  tiktok: (h) => new RegExp(`^https://www\\.tiktok\\.com/@${h}/video/[1-9]\\d{18}$`),
  instagram: () => /^https:\/\/www\.instagram\.com\/p\/[A-Za-z0-9_-]{11}\/$/,
  youtube: () => /^https:\/\/www\.youtube\.com\/watch\?v=[A-Za-z0-9_-]{11}$/,
  linkedin: () => /^https:\/\/www\.linkedin\.com\/feed\/update\/urn:li:share:[1-9]\d{18}\/$/,
  facebook: (h) => new RegExp(`^https://www\\.facebook\\.com/${h}/posts/[1-9]\\d{15}$`),
  threads: (h) => new RegExp(`^https://www\\.threads\\.com/@${h}/post/[A-Za-z0-9_-]{11}$`),
  pinterest: () => /^https:\/\/www\.pinterest\.com\/pin\/[1-9]\d{17}\/$/,
  reddit: (h) => new RegExp(`^https://www\\.reddit\\.com/user/${h}/comments/[0-9a-z]{7}/$`),
  bluesky: (h) => new RegExp(`^https://bsky\\.app/profile/${h.replace(/\./g, "\\.")}/post/[2-7a-z]{13}$`),
  discord: () => /^https:\/\/discord\.com\/channels\/[1-9]\d{17}\/[1-9]\d{17}\/[1-9]\d{18}$/,
  telegram: (h) => new RegExp(`^https://t\\.me/${h}/[1-9]\\d*$`),
};

async function targets(user: ApiUser, postId: string) {
  return (await user.get(`/posts/${postId}/targets`)).body.data as {
    platform: NetworkId;
    status: string;
    permalink: string | null;
    error: string | null;
    reach: number;
  }[];
}

export function sandboxTests(h: Harness): void {
  describe("sandbox networks", () => {
    it("each network publishes with a permalink in that network's URL shape, with the account's handle", async () => {
      const accounts = NETWORK_IDS.map((platform) => ({
        platform,
        handle: platform === "bluesky" ? "acme.bsky.social" : "acme",
      }));
      const user = await h.user({ plan: "studio", accounts });
      const post = await user.createPost({
        caption: "Everywhere",
        platforms: [...NETWORK_IDS],
        media: "https://example.com/clip.mp4",
      });
      expect(post.status).toBe("published");
      for (const t of await targets(user, post.id)) {
        expect(t.status, t.platform).toBe("published");
        const handle = t.platform === "bluesky" ? "acme.bsky.social" : "acme";
        expect(t.permalink, t.platform).toMatch(PERMALINK[t.platform](handle));
      }
    });

    it("permalinks are deterministic: the same post keeps the same link, and different posts get different links", async () => {
      const user = await h.user();
      const a = await user.createPost({ caption: "A", platforms: ["x", "bluesky"] });
      const b = await user.createPost({ caption: "B", platforms: ["x", "bluesky"] });
      const first = await targets(user, a.id);
      expect(await targets(user, a.id)).toEqual(first);
      const other = await targets(user, b.id);
      expect(other[0]!.permalink).not.toBe(first[0]!.permalink);
      expect(other[1]!.permalink).not.toBe(first[1]!.permalink);
    });

    it("an account that needs reconnecting fails that network with a message saying to reconnect it; the others publish", async () => {
      const user = await h.user({
        accounts: ["x", { platform: "linkedin", health: "reauth_required", handle: "acme" }],
      });
      const post = await user.createPost({ caption: "Partial", platforms: ["x", "linkedin"] });
      expect(post).toMatchObject({ status: "published", published_at: h.clock.now() });
      const [x, linkedin] = await targets(user, post.id);
      expect(x).toMatchObject({ platform: "x", status: "published", error: null });
      expect(linkedin).toMatchObject({ platform: "linkedin", status: "failed", permalink: null });
      expect(linkedin!.error).toMatch(/reconnect/i);
      expect(linkedin!.error).toContain("LinkedIn");
    });

    it("a post whose every network failed goes back to draft", async () => {
      const user = await h.user({ accounts: [{ platform: "x", health: "reauth_required" }] });
      const res = await user.post("/posts", { caption: "Nope", platforms: ["x"] });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: "draft", published_at: null, scheduled_at: null });
      expect((await user.get(`/posts/${res.body.id}`)).body.status).toBe("draft");
      expect((await targets(user, res.body.id))[0]).toMatchObject({ status: "failed", permalink: null });
    });

    it("a scheduled post whose every network failed goes back to draft when it falls due", async () => {
      const user = await h.user({ accounts: [{ platform: "x", health: "reauth_required" }] });
      const post = await user.createPost({
        caption: "Nope",
        platforms: ["x"],
        schedule_at: h.clock.now() + 60_000,
      });
      await h.clock.advance(60_000);
      expect((await user.get(`/posts/${post.id}`)).body).toMatchObject({
        status: "draft",
        published_at: null,
      });
    });

    it("an account disconnected after scheduling fails that network when the post falls due", async () => {
      const user = await h.user();
      const post = await user.createPost({
        caption: "Later",
        platforms: ["x", "bluesky"],
        schedule_at: h.clock.now() + 60_000,
      });
      await h.store.deleteAccount(user.id, "test", "bluesky");
      await h.clock.advance(60_000);
      const [x, bluesky] = await targets(user, post.id);
      expect(x!.status).toBe("published");
      expect(bluesky).toMatchObject({ status: "failed", permalink: null });
      expect(bluesky!.error).toMatch(/connect it again/);
    });

    it("metrics start at 0 and nothing is estimated", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Zero", platforms: ["x"] });
      await h.clock.advance(7 * 86_400_000);
      expect((await user.get(`/posts/${post.id}`)).body).toMatchObject({ reach: 0, engagement_rate: 0 });
      for (const t of await targets(user, post.id)) expect(t.reach).toBe(0);
    });
  });

  describe("POST /sandbox/metrics", () => {
    it("records a network's figures; the post's reach is their sum and engagement_rate = (likes + comments + shares) / reach × 100, two decimals", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Counted", platforms: ["x", "bluesky"] });
      const res = await user.post("/sandbox/metrics", {
        post_id: post.id,
        platform: "x",
        reach: 200,
        likes: 1,
        comments: 0,
        shares: 0,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ platform: "x", reach: 200, likes: 1, comments: 0, shares: 0 });
      await user.post("/sandbox/metrics", {
        post_id: post.id,
        platform: "bluesky",
        reach: 100,
        likes: 1,
        comments: 1,
        shares: 0,
      });
      // (1 + 2) / 300 × 100 = 1
      expect((await user.get(`/posts/${post.id}`)).body).toMatchObject({ reach: 300, engagement_rate: 1 });
      await user.post("/sandbox/metrics", {
        post_id: post.id,
        platform: "bluesky",
        reach: 100,
        likes: 1,
        comments: 1,
        shares: 1,
      });
      // 4 / 300 × 100 = 1.333… → 1.33
      expect((await user.get(`/posts/${post.id}`)).body).toMatchObject({ reach: 300, engagement_rate: 1.33 });
      // GET /posts lists each post with the same figures.
      expect((await user.get("/posts")).body.data[0]).toMatchObject({
        id: post.id,
        reach: 300,
        engagement_rate: 1.33,
      });
    });

    it("engagement_rate rounds to two decimals (2/3 → 66.67) and is 0 while reach is 0", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Round", platforms: ["x"] });
      await user.post("/sandbox/metrics", { post_id: post.id, platform: "x", reach: 0, likes: 0 });
      expect((await user.get(`/posts/${post.id}`)).body.engagement_rate).toBe(0);
      await user.post("/sandbox/metrics", { post_id: post.id, platform: "x", reach: 3, likes: 2 });
      expect((await user.get(`/posts/${post.id}`)).body).toMatchObject({ reach: 3, engagement_rate: 66.67 });
    });

    it("reach and every figure never go down", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Up only", platforms: ["x"] });
      await user.post("/sandbox/metrics", {
        post_id: post.id,
        platform: "x",
        reach: 100,
        likes: 10,
        comments: 5,
        shares: 2,
      });
      const res = await user.post("/sandbox/metrics", {
        post_id: post.id,
        platform: "x",
        reach: 50,
        likes: 20,
        comments: 1,
        shares: 0,
      });
      expect(res.body).toMatchObject({ reach: 100, likes: 20, comments: 5, shares: 2 });
      expect((await user.get(`/posts/${post.id}`)).body.reach).toBe(100);
    });

    it("likes, comments and shares default to 0", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Reach only", platforms: ["x"] });
      const res = await user.post("/sandbox/metrics", { post_id: post.id, platform: "x", reach: 10 });
      expect(res.body).toMatchObject({ reach: 10, likes: 0, comments: 0, shares: 0 });
    });

    it("another user's post, or an unknown one, answers 404 Post not found.", async () => {
      const alice = await h.user();
      const bob = await h.user();
      const post = await alice.createPost({ caption: "Mine", platforms: ["x"] });
      for (const post_id of [post.id, "post_01J00000000000000000000000"]) {
        const res = await bob.post("/sandbox/metrics", { post_id, platform: "x", reach: 1 });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: CONTRACT_MESSAGES.postNotFound });
      }
    });

    it("a network the post does not target, or that did not publish it, answers 400", async () => {
      const user = await h.user({ accounts: ["x", { platform: "bluesky", health: "reauth_required" }] });
      const post = await user.createPost({ caption: "Some", platforms: ["x", "bluesky"] });
      let res = await user.post("/sandbox/metrics", { post_id: post.id, platform: "linkedin", reach: 1 });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(
        "The post does not target linkedin; report metrics for one of: x, bluesky.",
      );
      res = await user.post("/sandbox/metrics", { post_id: post.id, platform: "bluesky", reach: 1 });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(
        "Bluesky has not published this post (its status there is failed), so it has no metrics.",
      );
    });

    it("negative or fractional figures and unknown networks answer 400 naming the field", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Valid", platforms: ["x"] });
      const cases = [
        [{ reach: -1 }, "reach must be a whole number, 0 or more."],
        [{ reach: 1.5 }, "reach must be a whole number, 0 or more."],
        [{ reach: 1, likes: "3" }, "likes must be a whole number, 0 or more."],
        [{ reach: 1, platform: "myspace" }, expect.stringMatching(/^platform must be a network id/)],
      ] as const;
      for (const [extra, message] of cases) {
        const res = await user.post("/sandbox/metrics", { post_id: post.id, platform: "x", ...extra });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: message });
      }
    });
  });
}
