import { describe, expect, it } from "vitest";
import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import { Post } from "../../contract/resources.ts";
import { SAMPLE_PNG } from "../media-samples.ts";
import { type Harness, keysOf } from "./harness.ts";

const POST_FIELDS = [
  "caption",
  "engagement_rate",
  "has_media",
  "id",
  "platforms",
  "published_at",
  "reach",
  "scheduled_at",
  "status",
].sort();

export function expectPostShape(body: unknown): void {
  expect(Post.parse(body)).toEqual(body);
  expect(keysOf(body as object)).toEqual(POST_FIELDS);
}

export function createPostTests(h: Harness): void {
  describe("POST /posts", () => {
    it("rule 1: without schedule_at the post publishes at once: 201, status published, published_at set (ms), scheduled_at null", async () => {
      const user = await h.user();
      const res = await user.post("/posts", { caption: "Hello", platforms: ["x", "bluesky"] });
      expect(res.status).toBe(201);
      expectPostShape(res.body);
      expect(res.body).toMatchObject({
        caption: "Hello",
        platforms: ["x", "bluesky"],
        status: "published",
        has_media: false,
        scheduled_at: null,
        published_at: h.clock.now(),
        reach: 0,
        engagement_rate: 0,
      });
      expect(res.body.id).toMatch(/^post_[0-9A-Z]{26}$/);
    });

    it("rule 1: the published post reads back the same from GET /posts/{id}", async () => {
      const user = await h.user();
      const created = await user.createPost({ caption: "Hello", platforms: ["x"] });
      const res = await user.get(`/posts/${created.id}`);
      expect(res.status).toBe(200);
      expectPostShape(res.body);
      expect(res.body).toEqual(created);
    });

    it("rule 2: with schedule_at the post is queued: 201, status scheduled, scheduled_at set (ms), published_at null", async () => {
      const user = await h.user();
      const at = h.clock.now() + 3_600_000;
      const res = await user.post("/posts", { caption: "Later", platforms: ["x"], schedule_at: at });
      expect(res.status).toBe(201);
      expectPostShape(res.body);
      expect(res.body).toMatchObject({ status: "scheduled", scheduled_at: at, published_at: null });
    });

    it("rule 3: no network resolving to a connected account answers 400 Select at least one connected network.", async () => {
      const user = await h.user({ accounts: ["x"] });
      for (const platforms of [[], ["mastodon"], ["bluesky"], ["mastodon", "linkedin"]]) {
        const res = await user.post("/posts", { caption: "Hi", platforms });
        expect(res.status, JSON.stringify(platforms)).toBe(400);
        expect(res.body).toEqual({ error: CONTRACT_MESSAGES.noConnectedNetwork });
      }
    });

    it("rule 3: unknown ids are ignored, unconnected ids dropped and duplicates collapsed", async () => {
      const user = await h.user({ accounts: ["x", "linkedin"] });
      const post = await user.createPost({
        caption: "Hi",
        platforms: ["mastodon", "x", "bluesky", "x", "linkedin"],
      });
      expect(post.platforms).toEqual(["x", "linkedin"]);
    });

    it("rule 4: a post with neither caption nor media answers 400", async () => {
      const user = await h.user();
      for (const body of [
        { platforms: ["x"] },
        { caption: "", platforms: ["x"] },
        { caption: " \n\t ", platforms: ["x"] },
      ]) {
        const res = await user.post("/posts", body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: "The post is empty: give a caption (or text per network in captions), media, or both.",
        });
      }
    });

    // Sandbox only: publishes a media URL on a host no local peer serves.
    it.skipIf(h.live)("rule 4: media alone is a post", async () => {
      const user = await h.user();
      const post = await user.createPost({ platforms: ["x"], media: "https://example.com/cat.jpg" });
      expect(post).toMatchObject({ caption: "", has_media: true, status: "published" });
    });

    it("rule 5: an unparseable schedule_at answers 400", async () => {
      const user = await h.user();
      for (const schedule_at of [
        "tomorrow",
        "2026-13-01T00:00:00Z",
        "2026-02-30T09:00:00Z",
        "",
        1.5,
        true,
        {},
        [],
        null,
      ]) {
        const res = await user.post("/posts", { caption: "Hi", platforms: ["x"], schedule_at });
        expect(res.status, JSON.stringify(schedule_at)).toBe(400);
        expect(res.body.error).toMatch(/schedule_at/);
      }
    });

    it("rule 5: a schedule_at in the past beyond the 60-second skew answers 400", async () => {
      const user = await h.user();
      const res = await user.post("/posts", {
        caption: "Hi",
        platforms: ["x"],
        schedule_at: h.clock.now() - 60_001,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^schedule_at .* is in the past; give a time in the future/);
    });

    it("rule 5: a schedule_at more than two years ahead (microseconds, a typo) answers 400 and nothing is created", async () => {
      const user = await h.user();
      const res = await user.post("/posts", {
        caption: "Hi",
        platforms: ["x"],
        schedule_at: h.clock.now() * 1000,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(
        /^schedule_at .* is more than two years ahead; it looks like microseconds or a typo\./,
      );
      expect((await user.get("/posts")).body.data).toEqual([]);
    });

    it("rule 6: over the plan's posts_per_month answers 400 naming the plan", async () => {
      const user = await h.user({ plan: "free", accounts: ["x"] });
      for (let i = 0; i < 30; i++) await user.createPost({ caption: `post ${i}`, platforms: ["x"] });
      const res = await user.post("/posts", { caption: "one too many", platforms: ["x"] });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(
        "The free plan allows 30 posts a month and this month's are used; upgrade the plan or wait until the month turns (UTC).",
      );
    });

    it("rule 6: deleting a post does not give back its place in the month's allowance", async () => {
      const user = await h.user({ plan: "free", accounts: ["x"] });
      for (let i = 0; i < 30; i++) {
        const post = await user.createPost({ caption: `post ${i}`, platforms: ["x"] });
        if (i === 0) expect((await user.delete(`/posts/${post.id}`)).status).toBe(200);
      }
      expect((await user.post("/posts", { caption: "31st", platforms: ["x"] })).status).toBe(400);
    });

    it("rule 6: the posts allowance renews when the UTC month turns", async () => {
      const user = await h.user({ plan: "free", accounts: ["x"] });
      for (let i = 0; i < 30; i++) await user.createPost({ caption: `post ${i}`, platforms: ["x"] });
      const now = new Date(h.clock.now());
      await h.clock.set(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      expect((await user.post("/posts", { caption: "new month", platforms: ["x"] })).status).toBe(201);
    });

    // Sandbox only: publishes more posts than X lets one account make in 15 minutes.
    it.skipIf(h.live)("rule 6: the studio plan has no posts_per_month limit", async () => {
      const user = await h.user({ plan: "studio", accounts: ["x"] });
      for (let i = 0; i < 301; i++) await user.createPost({ caption: `post ${i}`, platforms: ["x"] });
    });

    it("rule 7: the 201 body is the post object and nothing else", async () => {
      const user = await h.user();
      const res = await user.post("/posts", { caption: "Shape", platforms: ["linkedin"] });
      expect(res.status).toBe(201);
      expectPostShape(res.body);
    });

    it("rule 7: an invalid key answers 401", async () => {
      const user = await h.user();
      const res = await user.post("/posts", { caption: "Hi", platforms: ["x"] }, { anonymous: true });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: CONTRACT_MESSAGES.invalidKey });
    });

    it("the caption is stored as sent, however long", async () => {
      const user = await h.user();
      const caption = `  ${"word ".repeat(100)}  `;
      const post = await user.createPost({ caption, platforms: ["x"] });
      expect(post.caption).toBe(caption);
    });

    it("platforms that is not an array of strings answers 400 saying what it must be", async () => {
      const user = await h.user();
      for (const platforms of ["x", [1], null, undefined, { x: true }]) {
        const res = await user.post("/posts", { caption: "Hi", platforms });
        expect(res.status, JSON.stringify(platforms)).toBe(400);
        expect(res.body).toEqual({
          error: 'platforms must be an array of network ids, such as ["x", "bluesky"].',
        });
      }
    });

    it("caption, media and draft of the wrong type answer 400 naming the field", async () => {
      const user = await h.user();
      const cases = [
        [{ caption: 5 }, "caption must be a string."],
        [
          { media: 5 },
          'media must be an http(s) URL of an image or video or a med_ id, or a list of 1 to 20 of them, each a string or {"url": …} / {"id": "med_…"} with an optional "alt" of at most 1,000 characters.',
        ],
        [{ draft: "yes" }, "draft must be true or false."],
      ] as const;
      for (const [extra, message] of cases) {
        const res = await user.post("/posts", { caption: "Hi", platforms: ["x"], ...extra });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: message });
      }
    });

    it("media that is not an http(s) URL or a med_ id answers 400", async () => {
      const user = await h.user();
      for (const media of ["cat.jpg", "ftp://example.com/cat.jpg", "javascript:alert(1)"]) {
        const res = await user.post("/posts", { caption: "Hi", platforms: ["x"], media });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: "media must be an http(s) URL of an image or video, or a med_ id from POST /media.",
        });
      }
    });

    it("a med_ id that is not one of the user's media answers 400", async () => {
      const user = await h.user();
      const res = await user.post("/posts", {
        caption: "Hi",
        platforms: ["x"],
        media: "med_01J00000000000000000000000",
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(
        "media med_01J00000000000000000000000 was not found; upload it with POST /media first, or give a URL.",
      );
    });

    // Sandbox only: uses networks or account states the live peers do not offer.
    it.skipIf(h.live)(
      "checks run in order: platforms, then empty post, then media, then schedule_at, then plan limits",
      async () => {
        const user = await h.user({ plan: "free", accounts: ["x", "instagram"] });
        const past = h.clock.now() - 3_600_000;
        // Every rule broken at once: the platforms rule answers.
        let res = await user.post("/posts", { platforms: ["mastodon"], schedule_at: past });
        expect(res.body.error).toBe(CONTRACT_MESSAGES.noConnectedNetwork);
        res = await user.post("/posts", { platforms: ["instagram"], schedule_at: past });
        expect(res.body.error).toBe(
          "The post is empty: give a caption (or text per network in captions), media, or both.",
        );
        res = await user.post("/posts", { caption: "Hi", platforms: ["instagram"], schedule_at: past });
        expect(res.body.error).toMatch(/^instagram needs media/);
        res = await user.post("/posts", { caption: "Hi", platforms: ["x"], schedule_at: past });
        expect(res.body.error).toMatch(/^schedule_at/);
      },
    );

    // Sandbox only: uses networks or account states the live peers do not offer.
    it.skipIf(h.live)(
      "youtube needs a video: media known to be an image (by its URL or its med_ upload) answers 400 and creates nothing",
      async () => {
        const user = await h.user({ accounts: ["x", "youtube"] });
        const uploaded = await user.request("POST", "/media", {
          rawBody: SAMPLE_PNG,
          headers: { "content-type": "image/png" },
        });
        for (const [media, type] of [
          ["https://example.com/cat.JPG?size=large", "image/jpeg"],
          [uploaded.body.id, "image/png"],
        ] as const) {
          const res = await user.post("/posts", { caption: "Hi", platforms: ["x", "youtube"], media });
          expect(res.status).toBe(400);
          expect(res.body).toEqual({
            error: `youtube needs a video, and the post's media is an image (${type}): give a video (MP4, MOV, WebM, …) as media, or remove it from platforms.`,
          });
          expect(res.headers.get("x-request-id")).toMatch(/^req_/);
        }
        expect((await user.get("/posts")).body.data).toEqual([]);
        // Without youtube, the image is fine; a video, or a URL whose kind cannot be told yet, passes too.
        for (const [platforms, media] of [
          [["x"], "https://example.com/cat.jpg"],
          [["youtube"], "https://example.com/clip.mp4"],
          [["youtube"], "https://example.com/media/12345"],
        ] as const) {
          const res = await user.post("/posts", { caption: "Hi", platforms, media, draft: true });
          expect(res.status).toBe(201);
        }
      },
    );

    // Sandbox only: uses networks or account states the live peers do not offer.
    it.skipIf(h.live)("a refused post creates nothing", async () => {
      const user = await h.user({ accounts: ["x", "instagram"] });
      await user.post("/posts", { caption: "Hi", platforms: ["x", "instagram"] });
      await user.post("/posts", { caption: "Hi", platforms: ["x"], schedule_at: "yesterday" });
      expect((await user.get("/posts")).body.data).toEqual([]);
      expect(await h.store.listEvents(user.id)).toEqual([]);
    });
  });
}
