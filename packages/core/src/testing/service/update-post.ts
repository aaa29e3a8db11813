import { describe, expect, it } from "vitest";
import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import type { Harness } from "./harness.ts";

const HOUR = 3_600_000;

interface TargetJson {
  platform: string;
  text: string;
  status: string;
}

export function updatePostTests(h: Harness): void {
  describe("PATCH /posts/{id}", () => {
    const textsOf = async (user: Awaited<ReturnType<Harness["user"]>>, id: string) =>
      ((await user.get(`/posts/${id}/targets`)).body.data as TargetJson[]).map((t) => [t.platform, t.text]);

    // Sandbox only: counts every event, and each live connect sends account.connected first.
    it.skipIf(h.live)(
      "edits a scheduled post's caption, captions, networks and media: 200 with the post, and each network's new text",
      async () => {
        const user = await h.user();
        const at = h.clock.now() + HOUR;
        const post = await user.createPost({ caption: "Old", platforms: ["x"], schedule_at: at });
        const res = await user.patch(`/posts/${post.id}`, {
          caption: "New",
          captions: { linkedin: "New, for LinkedIn" },
          platforms: ["x", "linkedin"],
          media: "https://cdn.example.com/new.png",
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          ...post,
          caption: "New",
          platforms: ["x", "linkedin"],
          has_media: true,
          status: "scheduled",
          scheduled_at: at,
        });
        expect((await user.get(`/posts/${post.id}`)).body).toEqual(res.body);
        expect(await textsOf(user, post.id)).toEqual([
          ["x", "New"],
          ["linkedin", "New, for LinkedIn"],
        ]);
        // The due time did not change: no post.scheduled beyond the first.
        const types = (await h.store.listEvents(user.id)).map((e) => e.type);
        expect(types).toEqual(["post.scheduled"]);
      },
    );

    it("what is not sent stays: a caption edit keeps the overrides, captions: {} removes them, media: null removes the media", async () => {
      const user = await h.user();
      const post = await user.createPost({
        caption: "One",
        captions: { x: "One for X" },
        platforms: ["x", "bluesky"],
        media: "https://cdn.example.com/a.png",
        draft: true,
      });
      await user.patch(`/posts/${post.id}`, { caption: "Two" });
      expect(await textsOf(user, post.id)).toEqual([
        ["x", "One for X"],
        ["bluesky", "Two"],
      ]);
      const cleared = await user.patch(`/posts/${post.id}`, { captions: {}, media: null });
      expect(cleared.body).toMatchObject({ caption: "Two", has_media: false, status: "draft" });
      expect(await textsOf(user, post.id)).toEqual([
        ["x", "Two"],
        ["bluesky", "Two"],
      ]);
    });

    // Sandbox only: counts every event, and each live connect sends account.connected first.
    it.skipIf(h.live)(
      "schedule_at on a draft schedules it (post.scheduled); schedule_at: null makes it a draft again",
      async () => {
        const user = await h.user();
        const draft = await user.createPost({ caption: "Later", platforms: ["x"], draft: true });
        const at = h.clock.now() + HOUR;
        const scheduled = await user.patch(`/posts/${draft.id}`, { schedule_at: new Date(at).toISOString() });
        expect(scheduled.status).toBe(200);
        expect(scheduled.body).toMatchObject({ status: "scheduled", scheduled_at: at });
        const back = await user.patch(`/posts/${draft.id}`, { schedule_at: null });
        expect(back.body).toMatchObject({ status: "draft", scheduled_at: null });
        const events = await h.store.listEvents(user.id);
        expect(events.map((e) => [e.type, e.data])).toEqual([
          ["post.scheduled", { post_id: draft.id, platforms: ["x"], scheduled_at: at }],
        ]);
        // Back to a draft, it does not publish when the old time comes.
        await h.clock.advance(2 * HOUR);
        expect((await user.get(`/posts/${draft.id}`)).body.status).toBe("draft");
      },
    );

    it("rescheduling sends post.scheduled with the new time, and the post publishes then with its new text, not at the old time", async () => {
      const user = await h.user();
      const post = await user.createPost({
        caption: "Before",
        platforms: ["x"],
        schedule_at: h.clock.now() + HOUR,
      });
      const later = h.clock.now() + 3 * HOUR;
      const res = await user.patch(`/posts/${post.id}`, { caption: "After", schedule_at: later });
      expect(res.body).toMatchObject({ status: "scheduled", scheduled_at: later });
      const scheduled = (await h.store.listEvents(user.id)).filter((e) => e.type === "post.scheduled");
      expect(scheduled.map((e) => e.data)).toEqual([
        { post_id: post.id, platforms: ["x"], scheduled_at: post.scheduled_at },
        { post_id: post.id, platforms: ["x"], scheduled_at: later },
      ]);
      await h.clock.advance(HOUR);
      expect((await user.get(`/posts/${post.id}`)).body.status).toBe("scheduled");
      await h.clock.advance(2 * HOUR);
      expect((await user.get(`/posts/${post.id}`)).body).toMatchObject({
        status: "published",
        published_at: later,
      });
      expect(await textsOf(user, post.id)).toEqual([["x", "After"]]);
      const published = (await h.store.listEvents(user.id)).filter((e) => e.type === "post.published");
      expect(published).toHaveLength(1);
    });

    it("moving a due time earlier publishes at the new time", async () => {
      const user = await h.user();
      const post = await user.createPost({
        caption: "Soon",
        platforms: ["x"],
        schedule_at: h.clock.now() + 5 * HOUR,
      });
      const sooner = h.clock.now() + HOUR;
      await user.patch(`/posts/${post.id}`, { schedule_at: sooner });
      await h.clock.advance(HOUR);
      expect((await user.get(`/posts/${post.id}`)).body).toMatchObject({
        status: "published",
        published_at: sooner,
      });
    });

    // Sandbox only: uses networks or account states the live peers do not offer.
    it.skipIf(h.live)(
      "the post as edited is checked by the rules of POST /posts, in their order, and a refusal changes nothing",
      async () => {
        const user = await h.user({ accounts: ["x", "instagram", "youtube"] });
        const at = h.clock.now() + HOUR;
        const post = await user.createPost({
          caption: "Keep",
          captions: { x: "Keep on X" },
          platforms: ["x"],
          schedule_at: at,
        });
        const before = {
          post: (await user.get(`/posts/${post.id}`)).body,
          texts: await textsOf(user, post.id),
        };
        const events = (await h.store.listEvents(user.id)).length;
        const cases: [unknown, RegExp | string][] = [
          [{ platforms: "x" }, 'platforms must be an array of network ids, such as ["x", "bluesky"].'],
          [{ captions: { nope: "?" } }, /^captions keys must be network ids/],
          [{ platforms: ["reddit"], caption: "" }, CONTRACT_MESSAGES.noConnectedNetwork],
          [{ caption: "", captions: {} }, /^The post is empty/],
          [{ platforms: ["instagram"], schedule_at: 1 }, /^instagram needs media/],
          [{ media: "ftp://example.com/a.png" }, /^media must be an http\(s\) URL/],
          [{ platforms: ["youtube"], media: "https://example.com/a.png" }, /^youtube needs a video/],
          [{ schedule_at: h.clock.now() - 2 * HOUR }, /is in the past/],
          [{ schedule_at: "tomorrow" }, /.+/],
          [
            {},
            "Nothing to change: send any of caption, captions, platforms, media, thread, split, first_comment, poll, options, schedule_at.",
          ],
        ];
        for (const [body, message] of cases) {
          const res = await user.patch(`/posts/${post.id}`, body);
          expect(res.status, JSON.stringify(body)).toBe(400);
          if (typeof message === "string") expect(res.body).toEqual({ error: message });
          else expect(res.body.error, JSON.stringify(body)).toMatch(message);
        }
        expect((await user.get(`/posts/${post.id}`)).body).toEqual(before.post);
        expect(await textsOf(user, post.id)).toEqual(before.texts);
        expect(await h.store.listEvents(user.id)).toHaveLength(events);
      },
    );

    it("a network disconnected since is dropped as on POST /posts; with none left the edit is 400", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "Both", platforms: ["x", "bluesky"], draft: true });
      await user.delete("/accounts/bluesky");
      const res = await user.patch(`/posts/${post.id}`, { caption: "Both, edited" });
      expect(res.body.platforms).toEqual(["x"]);
      await user.delete("/accounts/x");
      const none = await user.patch(`/posts/${post.id}`, { caption: "Nowhere" });
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ error: CONTRACT_MESSAGES.noConnectedNetwork });
    });

    it("a published post answers 409 saying so; a post being published too; an unknown or another user's post 404", async () => {
      const user = await h.user();
      const published = await user.createPost({ caption: "Out", platforms: ["x"] });
      const res = await user.patch(`/posts/${published.id}`, { caption: "Changed" });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(
        "This post cannot be edited: it is already published. Only a draft or a scheduled post can be edited; create a new post instead.",
      );
      const due = await user.createPost({
        caption: "Due",
        platforms: ["x"],
        schedule_at: h.clock.now() + 1000,
      });
      await h.store.claimDuePosts(h.clock.now() + 1000, 10);
      const publishing = await user.patch(`/posts/${due.id}`, { caption: "Changed" });
      expect(publishing.status).toBe(409);
      expect(publishing.body.error).toMatch(/^This post cannot be edited: it is being published right now/);
      expect((await user.patch("/posts/post_unknown", { caption: "x" })).status).toBe(404);
      const other = await h.user();
      const theirs = await other.patch(`/posts/${due.id}`, { caption: "x" });
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual({ error: CONTRACT_MESSAGES.postNotFound });
    });

    it("an edit racing the scheduler lands before the post publishes (it publishes as edited) or answers 409 (it published as it was), never half", async () => {
      const user = await h.user({ plan: "studio" });
      const due = h.clock.now() + 1000;
      const posts = [];
      for (let i = 0; i < 8; i++) {
        posts.push(
          await user.createPost({ caption: `Old ${i}`, platforms: ["x", "bluesky"], schedule_at: due }),
        );
      }
      // Edits sent while the scheduler publishes the due posts.
      const edits = Promise.all(
        posts.map((p, i) =>
          user.patch(`/posts/${p.id}`, { caption: `New ${i}`, captions: { bluesky: `New ${i} 🦋` } }),
        ),
      );
      const [answers] = await Promise.all([edits, h.clock.advance(1000)]);
      await h.clock.advance(60_000);
      for (const [i, post] of posts.entries()) {
        const answer = answers[i]!;
        expect([200, 409], answer.text).toContain(answer.status);
        const got = (await user.get(`/posts/${post.id}`)).body;
        expect(got.status).toBe("published");
        const texts = await textsOf(user, post.id);
        if (answer.status === 200) {
          expect(got.caption).toBe(`New ${i}`);
          expect(texts).toEqual([
            ["x", `New ${i}`],
            ["bluesky", `New ${i} 🦋`],
          ]);
        } else {
          expect(answer.body.error).toMatch(/^This post cannot be edited: it is (being|already) published/);
          expect(got.caption).toBe(`Old ${i}`);
          expect(texts).toEqual([
            ["x", `Old ${i}`],
            ["bluesky", `Old ${i}`],
          ]);
        }
      }
      const published = (await h.store.listEvents(user.id)).filter((e) => e.type === "post.published");
      expect(published).toHaveLength(posts.length * 2);
    });

    it("with an Idempotency-Key: the retry replays the edit; after a 400 the corrected edit under the same key runs", async () => {
      const user = await h.user();
      const post = await user.createPost({ caption: "v1", platforms: ["x"], draft: true });
      const headers = { "idempotency-key": `edit-${post.id}` };
      const refused = await user.patch(`/posts/${post.id}`, { schedule_at: 5 }, { headers });
      expect(refused.status).toBe(400);
      const at = h.clock.now() + HOUR;
      const first = await user.patch(`/posts/${post.id}`, { caption: "v2", schedule_at: at }, { headers });
      expect(first.status).toBe(200);
      const again = await user.patch(`/posts/${post.id}`, { caption: "v2", schedule_at: at }, { headers });
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body).toEqual(first.body);
      expect((await h.store.listEvents(user.id)).filter((e) => e.type === "post.scheduled")).toHaveLength(1);
    });
  });
}
