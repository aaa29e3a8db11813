import { describe, expect, it } from "vitest";
import type { Harness, Json } from "./harness.ts";

const image = (n: number) => `https://cdn.example.com/photo-${n}.jpg`;

/**
 * Rich posts (decisions.md "Rich posts"): several media with alt text, threads, first comments, polls
 * and per-network options, through POST /posts, PATCH /posts/{id}, POST /posts/validate, the targets
 * and GET /posts/{id}/content. Sandbox only: what each sandbox network carries is its rule's.
 */
export function richPostTests(h: Harness): void {
  describe.skipIf(h.live)("rich posts", () => {
    it("a carousel beyond a network's most is refused naming the network and its limit; nothing is created", async () => {
      const user = await h.user({ accounts: ["x", "linkedin"] });
      const body = {
        caption: "Five photos",
        platforms: ["x", "linkedin"],
        media: [1, 2, 3, 4, 5].map(image),
      };
      const res = await user.post("/posts", body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toBe(
        "x takes at most 4 images in one post (the post has 5): give fewer, or remove x from platforms.",
      );
      const checked = await user.post("/posts/validate", body);
      expect([checked.status, checked.body]).toEqual([400, res.body]);
      // Images and a video together, where the network does not mix them.
      const mixed = await user.post("/posts", {
        caption: "Mixed",
        platforms: ["linkedin"],
        media: [image(1), "https://cdn.example.com/clip.mp4"],
      });
      expect(mixed.status).toBe(400);
      expect(mixed.body.error).toMatch(/^linkedin does not mix images and videos in one post/);
      expect((await user.get("/posts")).body.data).toEqual([]);
      expect(await h.store.listEvents(user.id)).toEqual([]);

      // Four go: every item, with its alt text, on the target.
      const post = await user.createPost({
        ...body,
        media: [image(1), { url: image(2), alt: "A red door" }, image(3), image(4)],
      });
      const [x]: Json[] = (await user.get(`/posts/${post.id}/targets`)).body.data;
      expect(x.media).toEqual([
        { url: image(1), type: "image/jpeg", alt: null },
        { url: image(2), type: "image/jpeg", alt: "A red door" },
        { url: image(3), type: "image/jpeg", alt: null },
        { url: image(4), type: "image/jpeg", alt: null },
      ]);
      expect(post.has_media).toBe(true);
    });

    it("a thread publishes as parts on x and bluesky, each with its own permalink in the network's shape", async () => {
      const user = await h.user({ accounts: ["x", "bluesky"] });
      const post = await user.createPost({
        caption: "One",
        platforms: ["x", "bluesky"],
        thread: [{ caption: "Two" }, { caption: "Three", captions: { bluesky: "Three, for Bluesky" } }],
      });
      expect(post.status).toBe("published");
      const [x, bluesky]: Json[] = (await user.get(`/posts/${post.id}/targets`)).body.data;
      expect(x.parts.map((p: Json) => [p.text, p.status])).toEqual([
        ["One", "published"],
        ["Two", "published"],
        ["Three", "published"],
      ]);
      expect(bluesky.parts.map((p: Json) => p.text)).toEqual(["One", "Two", "Three, for Bluesky"]);
      for (const p of x.parts) expect(p.permalink).toMatch(/^https:\/\/x\.com\/[^/]+\/status\/\d{19}$/);
      for (const p of bluesky.parts) {
        expect(p.permalink).toMatch(/^https:\/\/bsky\.app\/profile\/[^/]+\/post\/[2-7a-z]{13}$/);
      }
      expect(new Set(x.parts.map((p: Json) => p.permalink)).size).toBe(3);
      // The target's permalink is the thread's first part.
      expect([x.permalink, bluesky.permalink]).toEqual([x.parts[0].permalink, bluesky.parts[0].permalink]);
      expect(x.notes).toEqual([]);
    });

    it("POST /schedule takes a thread; a part's media is checked as the post's where the network threads", async () => {
      const user = await h.user({ accounts: ["x", "linkedin"] });
      const refused = await user.post("/schedule", {
        caption: "One",
        platforms: ["x", "linkedin"],
        at: h.clock.now() + 3_600_000,
        thread: [{ caption: "Two", media: [1, 2, 3, 4, 5].map(image) }],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(
        "x takes at most 4 images in one post (thread[0] has 5): give fewer, or remove x from platforms.",
      );
      const bad = await user.post("/posts", {
        caption: "One",
        platforms: ["linkedin"],
        thread: [{ caption: "Two", media: ["ftp://example.com/a.png"] }],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe(
        "thread[0].media must be an http(s) URL of an image or video, or a med_ id from POST /media.",
      );
      expect((await user.get("/posts")).body.data).toEqual([]);

      const res = await user.post("/schedule", {
        caption: "One",
        platforms: ["x", "linkedin"],
        at: h.clock.now() + 3_600_000,
        thread: [{ caption: "Two", media: image(2) }],
      });
      expect(res.status, res.text).toBe(201);
      const [x, linkedin]: Json[] = (await user.get(`/posts/${res.body.id}/targets`)).body.data;
      expect(x.parts).toEqual([
        { text: "One", status: "pending", permalink: null },
        { text: "Two", status: "pending", permalink: null },
      ]);
      expect(x.media).toEqual([{ url: image(2), type: "image/jpeg", alt: null }]);
      expect(linkedin.parts).toEqual([{ text: "One\n\nTwo", status: "pending", permalink: null }]);
    });

    it("on linkedin a thread is joined into one post with a note; later parts' media is not carried", async () => {
      const user = await h.user({ accounts: ["linkedin"] });
      const post = await user.createPost({
        caption: "One",
        platforms: ["linkedin"],
        thread: [{ caption: "Two", media: image(2) }, { caption: "Three" }],
      });
      const [linkedin]: Json[] = (await user.get(`/posts/${post.id}/targets`)).body.data;
      expect(linkedin).toMatchObject({
        status: "published",
        text: "One\n\nTwo\n\nThree",
        parts: [{ text: "One\n\nTwo\n\nThree", status: "published", permalink: linkedin.permalink }],
        media: [],
        notes: [
          "the thread's 3 parts joined into one post: LinkedIn takes no threads",
          "media of part 2 not carried: LinkedIn takes no threads",
        ],
      });
    });

    it("the first comment is published where the network comments, and not carried on pinterest", async () => {
      const user = await h.user({ accounts: ["x", "pinterest"] });
      const post = await user.createPost({
        caption: "Launch",
        platforms: ["x", "pinterest"],
        media: image(1),
        first_comment: "Details: https://example.com/launch",
      });
      expect(post.status).toBe("published");
      const [x, pinterest]: Json[] = (await user.get(`/posts/${post.id}/targets`)).body.data;
      expect(x.first_comment).toEqual({
        status: "published",
        permalink: expect.stringMatching(/^https:\/\/x\.com\/[^/]+\/status\/\d{19}$/),
        error: null,
      });
      expect(x.first_comment.permalink).not.toBe(x.permalink);
      expect(pinterest.status).toBe("published");
      expect(pinterest.first_comment).toEqual({ status: "not_carried", permalink: null, error: null });
      expect(pinterest.notes).toEqual([
        "first comment not carried: Pinterest cannot add one through its API",
      ]);
    });

    it("a poll is refused on a network without polls, naming it; outside a network's bounds it is refused there", async () => {
      const user = await h.user({ accounts: ["x", "linkedin", "threads"] });
      const poll = { options: ["Yes", "No"], duration_minutes: 60 };
      const res = await user.post("/posts", { caption: "Vote", platforms: ["x", "linkedin"], poll });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(
        "poll: linkedin takes no poll: remove the poll, or remove it from platforms.",
      );
      const short = await user.post("/posts", {
        caption: "Vote",
        platforms: ["x"],
        poll: { ...poll, duration_minutes: 2 },
      });
      expect(short.status).toBe(400);
      expect(short.body.error).toMatch(
        /^poll: x takes a duration_minutes from 5 to 10080 \(the poll has 2\)/,
      );
      const withMedia = await user.post("/posts", {
        caption: "Vote",
        platforms: ["x"],
        poll,
        media: image(1),
      });
      expect(withMedia.status).toBe(400);
      expect(withMedia.body.error).toMatch(/^poll: x takes no poll on a post with media/);
      expect((await user.get("/posts")).body.data).toEqual([]);

      // Threads runs every poll for 24 hours: carried, and noted.
      const checked = await user.post("/posts/validate", {
        caption: "Vote",
        platforms: ["x", "threads"],
        poll,
      });
      expect(checked.status, checked.text).toBe(200);
      expect(checked.body.targets[0].notes).toEqual([]);
      expect(checked.body.targets[1].notes).toEqual([
        "poll duration of 60 minutes not carried: Threads takes 1440 minutes, so the poll runs as Threads runs it",
      ]);
    });

    it("an unknown option key is refused with 400 naming the network and the key; other networks' options are ignored", async () => {
      const user = await h.user({ accounts: ["x"] });
      const res = await user.post("/posts", {
        caption: "Hi",
        platforms: ["x"],
        options: { x: { reply_settings: "following", reply_to: "123" } },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('options.x has no option "reply_to": x takes reply_settings.');
      const ok = await user.post("/posts", {
        caption: "Hi",
        platforms: ["x"],
        options: { x: { reply_settings: "following" }, youtube: { privacy: "unlisted" } },
      });
      expect(ok.status, ok.text).toBe(201);
    });

    it('split: "thread" cuts a long text into numbered parts where the network threads, and shortens it elsewhere', async () => {
      const user = await h.user({ accounts: ["x", "linkedin"] });
      const sentence = "This release brings faster uploads and clearer errors. ";
      const long = sentence.repeat(12).trim();
      const res = await user.post("/posts/validate", {
        caption: long,
        platforms: ["x", "linkedin"],
        split: "thread",
      });
      expect(res.status, res.text).toBe(200);
      const [x, linkedin] = res.body.targets;
      const count = x.parts.length;
      expect(count).toBeGreaterThan(2);
      x.parts.forEach((p: Json, i: number) => {
        expect(p.text.endsWith(` ${i + 1}/${count}`)).toBe(true);
        // Cut at sentence ends.
        expect(p.text.replace(/ \d+\/\d+$/, "").endsWith("errors.")).toBe(true);
      });
      expect(x.notes).toEqual([`text split into ${count} parts to fit the X limit of 280`]);
      expect(linkedin.parts).toEqual([{ text: long, media: [] }]);
    });

    it("alt text goes where the network takes it; telegram, which takes none, says so", async () => {
      const user = await h.user({ accounts: ["bluesky", "telegram"] });
      const res = await user.post("/posts/validate", {
        caption: "Door",
        platforms: ["bluesky", "telegram"],
        media: [{ url: image(1), alt: "A red door" }],
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.targets.map((t: Json) => t.notes)).toEqual([
        [],
        ["alt text not carried: Telegram takes none"],
      ]);
    });

    it("PATCH replaces the thread and removes the poll; the targets follow", async () => {
      const user = await h.user({ accounts: ["x"] });
      const post = await user.createPost({
        caption: "Draft",
        platforms: ["x"],
        draft: true,
        thread: [{ caption: "Old two" }, { caption: "Old three" }],
        poll: { options: ["A", "B"], duration_minutes: 60 },
      });
      const res = await user.patch(`/posts/${post.id}`, { thread: [{ caption: "New two" }], poll: null });
      expect(res.status, res.text).toBe(200);
      const content = (await user.get(`/posts/${post.id}/content`)).body;
      expect(content.thread).toEqual([{ caption: "New two", captions: {}, media: [] }]);
      expect(content.poll).toBeNull();
      const [x]: Json[] = (await user.get(`/posts/${post.id}/targets`)).body.data;
      expect(x.parts.map((p: Json) => [p.text, p.status])).toEqual([
        ["Draft", "pending"],
        ["New two", "pending"],
      ]);
      // An edit of another field leaves the thread as it is; null removes it.
      await user.patch(`/posts/${post.id}`, { caption: "Draft, edited" });
      expect((await user.get(`/posts/${post.id}/content`)).body.thread).toHaveLength(1);
      await user.patch(`/posts/${post.id}`, { thread: null });
      expect((await user.get(`/posts/${post.id}/content`)).body.thread).toEqual([]);
      // An edit is checked as a new post: an empty part is refused, nothing changed.
      const empty = await user.patch(`/posts/${post.id}`, { thread: [{ caption: "  " }] });
      expect(empty.status).toBe(400);
      expect(empty.body.error).toMatch(/^thread\[0\] is empty/);
    });

    it("GET /posts/{id}/content answers the whole content as sent; 404 for an unknown post", async () => {
      const user = await h.user({ accounts: ["x", "bluesky"] });
      const upload = await user.post("/media", { url: "https://cdn.example.com/upload.png" });
      expect(upload.status, upload.text).toBe(201);
      const body = {
        caption: "All of it",
        captions: { bluesky: "All of it, on Bluesky" },
        platforms: ["x", "bluesky"],
        media: [{ id: upload.body.id, alt: "The logo" }, image(2)],
        thread: [{ caption: "More", media: [{ url: image(3), alt: "A chart" }] }],
        first_comment: "Link in here",
        options: { x: { reply_settings: "following" } },
        split: "thread",
        draft: true,
      };
      const post = await user.createPost(body);
      const res = await user.get(`/posts/${post.id}/content`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        caption: "All of it",
        captions: { bluesky: "All of it, on Bluesky" },
        media: [
          { url: upload.body.url, type: upload.body.type, alt: "The logo" },
          { url: image(2), type: "image/jpeg", alt: null },
        ],
        thread: [
          { caption: "More", captions: {}, media: [{ url: image(3), type: "image/jpeg", alt: "A chart" }] },
        ],
        first_comment: "Link in here",
        poll: null,
        options: { x: { reply_settings: "following" } },
        split: "thread",
      });
      // A post without any of it reads as the contract's fields and empty extensions.
      const plain = await user.createPost({ caption: "Plain", platforms: ["x"], draft: true });
      expect((await user.get(`/posts/${plain.id}/content`)).body).toEqual({
        caption: "Plain",
        captions: {},
        media: [],
        thread: [],
        first_comment: null,
        poll: null,
        options: {},
        split: "shorten",
      });
      const missing = await user.get("/posts/post_01J00000000000000000000000/content");
      expect(missing.status).toBe(404);
    });
  });
}
