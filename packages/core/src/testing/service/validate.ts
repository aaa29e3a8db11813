import { describe, expect, it } from "vitest";
import type { Harness, Json } from "./harness.ts";

export function validateTests(h: Harness): void {
  describe("POST /posts/validate", () => {
    it("answers what each network would get: the text publishing sends it, the media, and notes on what was adapted", async () => {
      const user = await h.user({ accounts: ["x", "bluesky", "linkedin"] });
      const long = `${"Launch day. ".repeat(40)}Read more.`;
      const body = {
        caption: long,
        captions: { linkedin: "Our launch, in full, for LinkedIn." },
        platforms: ["x", "bluesky", "linkedin"],
        media: "https://cdn.example.com/launch.png",
      };
      const res = await user.post("/posts/validate", body);
      expect(res.status, res.text).toBe(200);
      expect(res.body.valid).toBe(true);
      const targets: Json[] = res.body.targets;
      expect(targets.map((t) => t.platform)).toEqual(["x", "bluesky", "linkedin"]);
      const media = [{ url: "https://cdn.example.com/launch.png", type: "image/png", alt: null }];
      for (const t of targets) {
        expect(t.parts).toHaveLength(1);
        expect(t.parts[0].media).toEqual(media);
        expect(t.first_comment).toBeNull();
      }
      const length = (t: Json) => [...t.parts[0].text].length;
      expect(targets[0].parts[0].text.length).toBeLessThan(long.length);
      // X counts some characters as two (the closing …), so its figure is X's own.
      expect(targets[0].notes).toHaveLength(1);
      const [, from, to] =
        /^text shortened from (\d+) to (\d+) characters as X counts them, to fit the X limit of 280$/.exec(
          targets[0].notes[0],
        )!;
      expect([Number(from), Number(to) <= 280, Number(to) > 250]).toEqual([long.length, true, true]);
      expect(targets[1].notes).toEqual([
        `text shortened from ${long.length} to ${length(targets[1])} characters, to fit the Bluesky limit of 300`,
      ]);
      expect(targets[2]).toEqual({
        platform: "linkedin",
        parts: [{ text: "Our launch, in full, for LinkedIn.", media }],
        first_comment: null,
        notes: ["text from captions.linkedin instead of caption"],
      });

      // Exactly what publishing then gives each network.
      const post = await user.createPost(body);
      const published: Json[] = (await user.get(`/posts/${post.id}/targets`)).body.data;
      expect(published.map((t) => t.text)).toEqual(targets.map((t) => t.parts[0].text));
    });

    it("stores nothing, writes no event and takes no place in the month's posts; it counts as an API call", async () => {
      const user = await h.user({ plan: "free", accounts: ["x"] });
      const me = (await user.get("/me")).body;
      const allowance = me.limits.posts_per_month as number;
      for (let i = 0; i < allowance + 2; i++) {
        const res = await user.post("/posts/validate", { caption: `Check ${i}`, platforms: ["x"] });
        expect(res.status, res.text).toBe(200);
      }
      expect((await user.get("/posts")).body.data).toEqual([]);
      expect(await h.store.listEvents(user.id)).toEqual([]);
      // This GET /me, the validations and the GET /posts above.
      expect((await user.get("/me")).body.usage.api_calls_this_month).toBe(
        me.usage.api_calls_this_month + allowance + 4,
      );
      // Every post of the month is still there to make.
      for (let i = 0; i < allowance; i++) {
        await user.createPost({ caption: `Post ${i}`, platforms: ["x"], draft: true });
      }
      // Once they are used, validate refuses what POST /posts refuses.
      const refused = await user.post("/posts", { caption: "One more", platforms: ["x"], draft: true });
      expect(refused.status).toBe(400);
      const checked = await user.post("/posts/validate", {
        caption: "One more",
        platforms: ["x"],
        draft: true,
      });
      expect([checked.status, checked.body]).toEqual([400, refused.body]);
    });

    it("refuses with the same 400 as POST /posts, in the same order", async () => {
      const user = await h.user({ accounts: ["x", "instagram"] });
      const bodies: unknown[] = [
        { caption: "Nowhere", platforms: ["pinterest"] },
        { platforms: ["x"] },
        { caption: "Needs a picture", platforms: ["x", "instagram"] },
        { caption: "Both", platforms: ["x"], draft: true, schedule_at: h.clock.now() + 60_000 },
        { caption: "Past", platforms: ["x"], schedule_at: h.clock.now() - 86_400_000 },
        { caption: "Bad media", platforms: ["x"], media: "med_nope" },
        { caption: 42, platforms: ["x"] },
        { caption: "No networks" },
      ];
      for (const body of bodies) {
        const created = await user.post("/posts", body);
        const checked = await user.post("/posts/validate", body);
        expect(created.status, JSON.stringify(body)).toBe(400);
        expect([checked.status, checked.body], JSON.stringify(body)).toEqual([400, created.body]);
      }
      expect((await user.get("/posts")).body.data).toEqual([]);
    });

    it("an uploaded med_ id is answered with its URL and type; text that fits has no note", async () => {
      const user = await h.user({ accounts: ["x"] });
      const media = await user.post("/media", { url: "https://cdn.example.com/clip.mp4" });
      expect(media.status, media.text).toBe(201);
      const res = await user.post("/posts/validate", {
        caption: "Short",
        platforms: ["x"],
        media: media.body.id,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.targets).toEqual([
        {
          platform: "x",
          parts: [{ text: "Short", media: [{ url: media.body.url, type: media.body.type, alt: null }] }],
          first_comment: null,
          notes: [],
        },
      ]);
    });
  });
}
