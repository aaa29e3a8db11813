import { describe, expect, it } from "vitest";
import { NETWORK_IDS, NETWORK_RULES, type NetworkId, textLimitFor } from "../../contract/networks.ts";
import { Target } from "../../contract/resources.ts";
import { measure } from "../../text/measure.ts";
import { type ApiUser, type Harness, keysOf } from "./harness.ts";

const codePoints = (s: string) => [...s].length;
/** X's weighted length (a URL 23, most non-Latin characters 2). */
const xWeight = (s: string) => measure(s, "weighted");
const graphemeCount = (s: string) =>
  [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(s)].length;

async function targetText(user: ApiUser, postId: string, platform: NetworkId): Promise<string> {
  const res = await user.get(`/posts/${postId}/targets`);
  const target = res.body.data.find((t: { platform: string }) => t.platform === platform);
  return target.text;
}

export function textTests(h: Harness): void {
  describe("per-network text adaptation", () => {
    it("x: a caption over 280 is truncated to at most 280 weighted, ending with …; the stored caption is unchanged", async () => {
      const user = await h.user();
      const caption = "Release notes: ".concat("improved scheduling and faster lists ".repeat(12));
      const post = await user.createPost({ caption, platforms: ["x", "linkedin"] });
      expect(post.caption).toBe(caption);
      const text = await targetText(user, post.id, "x");
      expect(xWeight(text)).toBeLessThanOrEqual(280);
      expect(text.endsWith("…")).toBe(true);
      expect(caption.startsWith(text.slice(0, -1))).toBe(true);
      expect(await targetText(user, post.id, "linkedin")).toBe(caption);
    });

    it("x: a caption of exactly 280 characters is published unchanged", async () => {
      const user = await h.user();
      const caption = "a".repeat(280);
      const post = await user.createPost({ caption, platforms: ["x"] });
      expect(await targetText(user, post.id, "x")).toBe(caption);
      const longer = await user.createPost({ caption: `${caption}b`, platforms: ["x"] });
      // X weighs the … 2: 278 letters and the … make 280.
      expect(await targetText(user, longer.id, "x")).toBe(`${"a".repeat(278)}…`);
    });

    it("x: weighted length: a URL counts 23 and CJK characters 2", async () => {
      const user = await h.user();
      const url = `https://example.com/${"p".repeat(200)}`;
      const caption = `${"a".repeat(250)} ${url}`; // 250 + 1 + 23 = 274 on X
      const post = await user.createPost({ caption, platforms: ["x"] });
      expect(await targetText(user, post.id, "x")).toBe(caption);
      const cjk = await user.createPost({ caption: "日".repeat(200), platforms: ["x"] });
      const text = await targetText(user, cjk.id, "x");
      expect(text).toBe(`${"日".repeat(139)}…`);
      expect(xWeight(text)).toBe(280);
    });

    it("truncation prefers a word boundary and drops the space before …", async () => {
      const user = await h.user();
      // 279 characters of room end inside a word ("wor|dy"): the cut moves back to the last whole word.
      const caption = "wordy ".repeat(100);
      const post = await user.createPost({ caption, platforms: ["x"] });
      const text = await targetText(user, post.id, "x");
      expect(text).toMatch(/^(wordy )*wordy…$/);
      expect(codePoints(text)).toBeLessThanOrEqual(280);
      expect(codePoints(text)).toBeGreaterThan(270);
    });

    it("truncation cuts at a grapheme boundary, never inside an emoji", async () => {
      const user = await h.user();
      const thumbs = "👍🏽"; // two code points, one grapheme
      const caption = thumbs.repeat(200);
      const post = await user.createPost({ caption, platforms: ["x"] });
      const text = await targetText(user, post.id, "x");
      expect(text).toBe(`${thumbs.repeat(139)}…`);
      expect(codePoints(text)).toBe(279);
    });

    it("bluesky counts graphemes: 300 emoji with skin tones fit unchanged, 301 are cut to 299 + …", async () => {
      const user = await h.user();
      const family = "👨‍👩‍👧"; // five code points, one grapheme
      const fits = await user.createPost({ caption: family.repeat(300), platforms: ["bluesky"] });
      expect(await targetText(user, fits.id, "bluesky")).toBe(family.repeat(300));
      const over = await user.createPost({ caption: family.repeat(301), platforms: ["bluesky"] });
      const text = await targetText(user, over.id, "bluesky");
      expect(graphemeCount(text)).toBe(300);
      expect(text).toBe(`${family.repeat(299)}…`);
    });

    it("telegram allows 4096 characters, 1024 when media is attached", async () => {
      const user = await h.user({ accounts: ["telegram"] });
      const caption = "news ".repeat(1000);
      const plain = await user.createPost({ caption, platforms: ["telegram"] });
      expect(codePoints(await targetText(user, plain.id, "telegram"))).toBeLessThanOrEqual(4096);
      expect(codePoints(await targetText(user, plain.id, "telegram"))).toBeGreaterThan(1024);
      const withMedia = await user.createPost({
        caption,
        platforms: ["telegram"],
        media: "https://example.com/a.png",
      });
      expect(codePoints(await targetText(user, withMedia.id, "telegram"))).toBeLessThanOrEqual(1024);
    });

    it("every network: a caption at its limit is unchanged and one over it is cut to fit, ending with …", async () => {
      const user = await h.user({ plan: "studio", accounts: [...NETWORK_IDS] });
      for (const platform of NETWORK_IDS) {
        const rule = NETWORK_RULES[platform];
        const media = rule.needsMedia ? "https://example.com/clip.mp4" : undefined;
        const limit = textLimitFor(platform, media !== undefined);
        const exact = "x".repeat(limit);
        const over = `${"word ".repeat(Math.ceil(limit / 5))}tail`;
        const a = await user.createPost({ caption: exact, platforms: [platform], media });
        expect(await targetText(user, a.id, platform), platform).toBe(exact);
        const b = await user.createPost({ caption: over, platforms: [platform], media });
        const text = await targetText(user, b.id, platform);
        expect(codePoints(text), platform).toBeLessThanOrEqual(limit);
        expect(text.endsWith("word…"), platform).toBe(true);
      }
    });
  });

  describe("GET /posts/{id}/targets", () => {
    it("answers one entry per network with exactly the Target fields", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Hi", platforms: ["x", "bluesky"] });
      const res = await user.get(`/posts/${post.id}/targets`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((t: { platform: string }) => t.platform)).toEqual(["x", "bluesky"]);
      for (const target of res.body.data) {
        expect(Target.parse(target)).toEqual(target);
        expect(keysOf(target)).toEqual(
          [
            "comments",
            "error",
            "likes",
            "permalink",
            "platform",
            "published_at",
            "reach",
            "shares",
            "status",
            "text",
            // Extensions (decisions.md "Rich posts").
            "parts",
            "media",
            "first_comment",
            "notes",
          ].sort(),
        );
        expect(target).toMatchObject({
          status: "published",
          text: "Hi",
          error: null,
          published_at: h.clock.now(),
        });
      }
    });

    it("targets of a scheduled post are pending with their adapted text", async () => {
      const user = await h.user();
      const post = await user.createPost({
        caption: "Soon",
        platforms: ["x"],
        schedule_at: h.clock.now() + 60_000,
      });
      const res = await user.get(`/posts/${post.id}/targets`);
      expect(res.body.data).toEqual([
        {
          platform: "x",
          status: "pending",
          text: "Soon",
          permalink: null,
          error: null,
          published_at: null,
          reach: 0,
          likes: 0,
          comments: 0,
          shares: 0,
          parts: [{ text: "Soon", status: "pending", permalink: null }],
          media: [],
          first_comment: null,
          notes: [],
        },
      ]);
    });
  });
}
