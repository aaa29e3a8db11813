import { describe, expect, it } from "vitest";
import { NETWORK_RULES } from "../../contract/networks.ts";
import type { Harness } from "./harness.ts";

const HOUR = 3_600_000;

export function captionsTests(h: Harness): void {
  describe("captions: text per network", () => {
    it("each targeted network publishes its override; the others publish caption; the post's caption is as sent", async () => {
      const user = await h.user();
      const res = await user.post("/posts", {
        caption: "Release 2.0 is out.",
        captions: { linkedin: "Release 2.0 is out: what changed and why, for the team." },
        platforms: ["x", "linkedin"],
      });
      expect(res.status).toBe(201);
      expect(res.body.caption).toBe("Release 2.0 is out.");
      expect(Object.keys(res.body).sort()).toEqual(
        [
          "caption",
          "engagement_rate",
          "has_media",
          "id",
          "platforms",
          "published_at",
          "reach",
          "scheduled_at",
          "status",
        ].sort(),
      );
      const targets = (await user.get(`/posts/${res.body.id}/targets`)).body.data;
      expect(
        targets.map((t: { platform: string; text: string; status: string }) => [t.platform, t.text]),
      ).toEqual([
        ["x", "Release 2.0 is out."],
        ["linkedin", "Release 2.0 is out: what changed and why, for the team."],
      ]);
      expect(targets.every((t: { status: string }) => t.status === "published")).toBe(true);
    });

    it("an override is adapted to its network's limit like any text", async () => {
      const user = await h.user();
      const long = `${"word ".repeat(100)}end`;
      const post = await user.createPost({
        caption: "Short.",
        captions: { x: long },
        platforms: ["x", "bluesky"],
      });
      const [x, bluesky] = (await user.get(`/posts/${post.id}/targets`)).body.data;
      expect([...x.text].length).toBeLessThanOrEqual(NETWORK_RULES.x.textLimit);
      expect(x.text.endsWith("…")).toBe(true);
      expect(x.text.startsWith("word word")).toBe(true);
      expect(bluesky.text).toBe("Short.");
    });

    it("a key that is not a network id is 400 naming it, and nothing is created", async () => {
      const user = await h.user();
      const res = await user.post("/posts", {
        caption: "Hi",
        captions: { x: "Hi X", mastodon: "Hi Mastodon" },
        platforms: ["x"],
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(
        /^captions keys must be network ids \(tiktok, .*telegram\); "mastodon" is not\.$/,
      );
      const notText = await user.post("/posts", { caption: "Hi", captions: { x: 5 }, platforms: ["x"] });
      expect(notText.status).toBe(400);
      expect(notText.body.error).toBe("captions.x must be a string: that network's text.");
      const notObject = await user.post("/posts", { caption: "Hi", captions: ["x"], platforms: ["x"] });
      expect(notObject.status).toBe(400);
      expect(notObject.body.error).toMatch(/^captions must be an object of network id → text/);
      expect((await user.get("/posts")).body.data).toEqual([]);
    });

    it("an override for a network the post does not target is ignored, and so is an empty one", async () => {
      const user = await h.user();
      const post = await user.createPost({
        caption: "For all",
        captions: { facebook: "Not targeted", bluesky: "   " },
        platforms: ["x", "bluesky"],
      });
      const texts = (await user.get(`/posts/${post.id}/targets`)).body.data.map(
        (t: { text: string }) => t.text,
      );
      expect(texts).toEqual(["For all", "For all"]);
    });

    it("the post is empty only when no targeted network has text and there is no media", async () => {
      const user = await h.user();
      const onlyOverride = await user.post("/posts", { captions: { x: "Only on X" }, platforms: ["x"] });
      expect(onlyOverride.status).toBe(201);
      expect(onlyOverride.body.caption).toBe("");
      const targets = (await user.get(`/posts/${onlyOverride.body.id}/targets`)).body.data;
      expect(targets[0].text).toBe("Only on X");

      const untargeted = await user.post("/posts", { captions: { linkedin: "Elsewhere" }, platforms: ["x"] });
      expect(untargeted.status).toBe(400);
      expect(untargeted.body.error).toMatch(/^The post is empty/);
      const blank = await user.post("/posts", { caption: " ", captions: { x: "\n" }, platforms: ["x"] });
      expect(blank.status).toBe(400);
      expect(blank.body.error).toMatch(/^The post is empty/);
    });

    it("rules keep their order: an unknown key is a body-shape error, before platforms resolve", async () => {
      const user = await h.user();
      const res = await user.post("/posts", { captions: { nope: "x" }, platforms: ["mastodon"] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^captions keys must be network ids/);
    });

    it("POST /schedule and drafts keep the overrides; the scheduled post publishes each network's text", async () => {
      const user = await h.user();
      const scheduled = await user.post("/schedule", {
        caption: "Webinar in an hour",
        captions: { bluesky: "Webinar in an hour 🦋" },
        platforms: ["x", "bluesky"],
        at: h.clock.now() + HOUR,
      });
      expect(scheduled.status).toBe(201);
      const draft = await user.createPost({
        caption: "Draft",
        captions: { x: "Draft for X" },
        platforms: ["x", "linkedin"],
        draft: true,
      });
      await h.clock.advance(HOUR);
      const targets = (await user.get(`/posts/${scheduled.body.id}/targets`)).body.data;
      expect(targets.map((t: { text: string; status: string }) => [t.text, t.status])).toEqual([
        ["Webinar in an hour", "published"],
        ["Webinar in an hour 🦋", "published"],
      ]);
      const published = await user.post(`/posts/${draft.id}/publish`, {});
      expect(published.body.status).toBe("published");
      const draftTargets = (await user.get(`/posts/${draft.id}/targets`)).body.data;
      expect(draftTargets.map((t: { text: string }) => t.text)).toEqual(["Draft for X", "Draft"]);
    });
  });
}
