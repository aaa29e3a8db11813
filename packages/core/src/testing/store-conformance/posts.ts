import { beforeEach, describe, expect, it } from "vitest";
import type { NetworkId } from "../../contract/networks.ts";
import { newId } from "../../ids.ts";
import type { FirstCommentRecord, PartRecord, PostRecord, RichContent, Store } from "../../store/types.ts";
import { type StoreFixture, T0 } from "./fixture.ts";

/** One message of a target, pending, as planned for a network. */
const part = (text: string): PartRecord => ({
  text,
  media: [],
  status: "pending",
  remote_id: null,
  permalink: null,
});
/** A first comment not added yet. */
const comment = (text: string): FirstCommentRecord => ({
  text,
  status: "pending",
  permalink: null,
  error: null,
});

/** Posts: written, read, edited, and claimed when due. */
export function describePosts(fixture: StoreFixture): void {
  const { user, post, target, event } = fixture;
  let store: Store;

  describe("posts", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    it("insertPost stores the post and its targets; getPost is scoped to the user", async () => {
      const a = await user();
      const b = await user();
      const p = post(a.id, { platforms: ["x", "bluesky"], media: "https://example.com/a.png" });
      await store.insertPost(p, [target(p.id, "x"), target(p.id, "bluesky")]);
      expect(await store.getPost(a.id, p.id)).toEqual(p);
      expect(await store.getPost(b.id, p.id)).toBeNull();
      expect((await store.getTargets(p.id)).map((t) => t.platform)).toEqual(["x", "bluesky"]);
      await expect(store.insertPost(p, [])).rejects.toThrow();
    });

    it("records handed out are copies: changing one does not change the store", async () => {
      const u = await user();
      const p = post(u.id);
      await store.insertPost(p, [target(p.id)]);
      const got = (await store.getPost(u.id, p.id))!;
      got.status = "published";
      got.platforms.push("bluesky");
      (await store.getTargets(p.id))[0]!.reach = 99;
      p.caption = "changed after insert";
      expect(await store.getPost(u.id, p.id)).toMatchObject({
        status: "scheduled",
        platforms: ["x"],
        caption: "hello",
      });
      expect((await store.getTargets(p.id))[0]!.reach).toBe(0);
    });

    it("listPosts: most recent first by id, filtered by status, limited, paged with beforeId, per user", async () => {
      const a = await user();
      const b = await user();
      const made: PostRecord[] = [];
      for (let i = 0; i < 5; i++) {
        const p = post(a.id, { status: i % 2 === 0 ? "published" : "draft", scheduled_at: null });
        made.push(p);
        await store.insertPost(p, []);
      }
      await store.insertPost(post(b.id), []);
      const newestFirst = [...made].reverse().map((p) => p.id);
      expect((await store.listPosts(a.id, { limit: 10 })).map((p) => p.id)).toEqual(newestFirst);
      expect((await store.listPosts(a.id, { limit: 2 })).map((p) => p.id)).toEqual(newestFirst.slice(0, 2));
      expect((await store.listPosts(a.id, { limit: 10, beforeId: newestFirst[1] })).map((p) => p.id)).toEqual(
        newestFirst.slice(2),
      );
      expect((await store.listPosts(a.id, { limit: 10, statuses: ["draft"] })).map((p) => p.id)).toEqual(
        newestFirst.filter((id) => made.find((p) => p.id === id)!.status === "draft"),
      );
      expect(await store.listPosts(a.id, { limit: 10, statuses: ["scheduled"] })).toEqual([]);
      expect((await store.listPosts(a.id, { limit: 10, statuses: [] })).length).toBe(5);
    });

    it("countPostsCreatedSince counts from `since`, deleted posts included", async () => {
      const u = await user();
      const old = post(u.id, { created_at: T0 - 1 });
      const p1 = post(u.id, { created_at: T0 });
      const p2 = post(u.id, { created_at: T0 + 5 });
      for (const p of [old, p1, p2]) await store.insertPost(p, []);
      expect(await store.countPostsCreatedSince(u.id, T0)).toBe(2);
      await store.deletePost(u.id, p1.id);
      expect(await store.countPostsCreatedSince(u.id, T0)).toBe(2);
      expect(await store.countPostsCreatedSince((await user()).id, T0)).toBe(0);
    });

    it("deletePost removes the post and its targets, only for its owner, writing the effects for the record as it was", async () => {
      const a = await user();
      const b = await user();
      const p = post(a.id);
      await store.insertPost(p, [target(p.id)]);
      expect(
        await store.deletePost(b.id, p.id, () => ({ events: [event(b.id, "post.deleted")] })),
      ).toBeNull();
      expect(await store.listEvents(b.id)).toEqual([]);
      const seen: PostRecord[] = [];
      const removed = await store.deletePost(a.id, p.id, (record) => {
        seen.push(record);
        return {
          events: [
            {
              id: newId("evt", T0),
              user_id: a.id,
              type: "post.deleted",
              created: Math.floor(T0 / 1000),
              data: { post_id: record.id, previous_status: record.status },
            },
          ],
        };
      });
      expect(removed).toEqual(p);
      expect(seen).toEqual([p]);
      expect(await store.getPost(a.id, p.id)).toBeNull();
      expect(await store.getTargets(p.id)).toEqual([]);
      expect((await store.listEvents(a.id)).map((e) => e.data)).toEqual([
        { post_id: p.id, previous_status: "scheduled" },
      ]);
      expect(await store.deletePost(a.id, p.id)).toBeNull();
    });

    it("transitionPost is a compare-and-set on status: applied with targets and events only when the status matches", async () => {
      const u = await user();
      const p = post(u.id);
      await store.insertPost(p, [target(p.id)]);
      const published = [
        target(p.id, "x", { status: "published", permalink: "https://x.com/a/status/1", published_at: T0 }),
      ];
      const refused = await store.transitionPost(
        p.id,
        ["publishing"],
        { status: "published", published_at: T0 },
        published,
        {
          events: [event(u.id)],
        },
      );
      expect(refused).toBeNull();
      expect(await store.getPost(u.id, p.id)).toEqual(p);
      expect(await store.getTargets(p.id)).toEqual([target(p.id)]);
      expect(await store.listEvents(u.id)).toEqual([]);

      const applied = await store.transitionPost(
        p.id,
        ["scheduled", "draft"],
        { status: "published", published_at: T0 },
        published,
        {
          events: [event(u.id)],
        },
      );
      expect(applied).toEqual({ ...p, status: "published", published_at: T0 });
      expect(await store.getTargets(p.id)).toEqual(published);
      expect(await store.listEvents(u.id)).toHaveLength(1);
      expect(await store.transitionPost("post_missing", ["scheduled"], { status: "draft" })).toBeNull();
    });

    it("transitionPost can clear scheduled_at and keeps targets when none are given", async () => {
      const u = await user();
      const p = post(u.id, { status: "publishing" });
      await store.insertPost(p, [target(p.id)]);
      const updated = await store.transitionPost(p.id, ["publishing"], {
        status: "draft",
        scheduled_at: null,
      });
      expect(updated).toMatchObject({ status: "draft", scheduled_at: null });
      expect(await store.getTargets(p.id)).toEqual([target(p.id)]);
    });
  });

  describe("editing posts", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    it("captions (text per network) are kept with the post; a post without any has none, never an empty object", async () => {
      const u = await user();
      const p = post(u.id, { platforms: ["x", "linkedin"], captions: { linkedin: "The longer story." } });
      await store.insertPost(p, [target(p.id, "x"), target(p.id, "linkedin")]);
      expect(await store.getPost(u.id, p.id)).toEqual(p);
      expect((await store.listPosts(u.id, { limit: 10 }))[0]).toEqual(p);
      const bare = post(u.id, { captions: {} });
      await store.insertPost(bare, [target(bare.id)]);
      expect(await store.getPost(u.id, bare.id)).not.toHaveProperty("captions");
    });

    it("transitionPost edits caption, captions, platforms and media with the targets, as one compare-and-set", async () => {
      const u = await user();
      const p = post(u.id, { status: "scheduled", captions: { x: "Short." } });
      await store.insertPost(p, [target(p.id, "x")]);
      const edited = {
        caption: "New text",
        captions: { bluesky: "For Bluesky." },
        platforms: ["x", "bluesky"] as NetworkId[],
        media: "https://example.com/b.png",
        status: "draft" as const,
        scheduled_at: null,
      };
      const targets = [
        target(p.id, "x", { text: "New text" }),
        target(p.id, "bluesky", { text: "For Bluesky." }),
      ];
      const written = await store.transitionPost(p.id, ["scheduled"], edited, targets, (updated) => ({
        events: [event(updated.user_id, "post.scheduled")],
      }));
      const expected = { ...p, ...edited };
      expect(written).toEqual(expected);
      expect(await store.getPost(u.id, p.id)).toEqual(expected);
      expect(await store.getTargets(p.id)).toEqual(targets);
      expect(await store.listEvents(u.id)).toHaveLength(1);
      // Edits leave what they do not name; {} removes the overrides; media can be removed.
      const again = await store.transitionPost(p.id, ["draft"], { captions: {}, media: null });
      expect(again).toEqual({ ...p, ...edited, captions: undefined, media: null });
      expect(await store.getPost(u.id, p.id)).not.toHaveProperty("captions");
      expect(await store.getTargets(p.id)).toEqual(targets);
    });

    it("an edit racing a claim: after claimDuePosts the edit is refused and the post publishes as claimed", async () => {
      const u = await user();
      const p = post(u.id, { scheduled_at: T0 });
      await store.insertPost(p, [target(p.id)]);
      expect(await store.claimDuePosts(T0, 10)).toEqual([{ ...p, status: "publishing" }]);
      const edit = await store.transitionPost(p.id, ["scheduled"], { caption: "too late" }, [
        target(p.id, "x", { text: "too late" }),
      ]);
      expect(edit).toBeNull();
      expect(await store.getPost(u.id, p.id)).toEqual({ ...p, status: "publishing" });
      expect(await store.getTargets(p.id)).toEqual([target(p.id)]);
      // And the other way round: an edit that lands first is what the claim hands out.
      const q = post(u.id, { scheduled_at: T0 });
      await store.insertPost(q, [target(q.id)]);
      await store.transitionPost(q.id, ["scheduled"], { caption: "in time" }, [
        target(q.id, "x", { text: "in time" }),
      ]);
      expect(await store.claimDuePosts(T0, 10)).toEqual([{ ...q, caption: "in time", status: "publishing" }]);
      expect((await store.getTargets(q.id))[0]!.text).toBe("in time");
    });
  });

  describe("rich posts", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    /** Everything a rich post adds, each field filled in. */
    const rich = (): RichContent => ({
      media: [
        { ref: "https://example.com/a.png", alt: "A chart of sign-ups by week" },
        { ref: "med_01HZ0000000000000000000000" },
        { ref: "https://example.com/c.jpg", alt: "Émilie at the launch, 🎉" },
      ],
      thread: [
        { caption: "Second part.", captions: { bluesky: "Second, for Bluesky." } },
        { caption: "Third part, with a picture.", media: [{ ref: "https://example.com/d.png", alt: "D" }] },
      ],
      first_comment: "Release notes: https://example.com/notes",
      poll: { options: ["Yes", "No", "Later"], duration_minutes: 1440 },
      options: {
        youtube: { title: "Launch", privacy: "unlisted", tags: ["a", "b"] },
        x: { reply_settings: "following" },
      },
      split: "thread",
    });

    it("rich content (media with alt, thread, first comment, poll, options, split) is kept with the post: insert, getPost, listPosts, claimDuePosts", async () => {
      const u = await user();
      const p = post(u.id, { media: "https://example.com/a.png", scheduled_at: T0, rich: rich() });
      await store.insertPost(p, [target(p.id)]);
      expect(await store.getPost(u.id, p.id)).toEqual(p);
      expect((await store.listPosts(u.id, { limit: 10 }))[0]).toEqual(p);
      // The scheduler's claim hands publishing the whole content.
      expect(await store.claimDuePosts(T0, 10)).toEqual([{ ...p, status: "publishing" }]);
      // Copies: changing what was handed out, or what was given, changes nothing stored.
      const got = (await store.getPost(u.id, p.id))!;
      got.rich!.media![0]!.alt = "changed";
      got.rich!.thread!.pop();
      p.rich!.poll!.options.push("changed");
      expect((await store.getPost(u.id, p.id))!.rich).toEqual(rich());
    });

    it("a post with no rich content has none, never an empty object, and its first media item stays `media`", async () => {
      const u = await user();
      const plain = post(u.id, { media: "https://example.com/a.png" });
      const empty = post(u.id, { rich: {} });
      const undefinedOnly = post(u.id, { rich: { thread: undefined, poll: undefined } });
      for (const p of [plain, empty, undefinedOnly]) await store.insertPost(p, [target(p.id)]);
      for (const p of [plain, empty, undefinedOnly]) {
        expect(await store.getPost(u.id, p.id)).not.toHaveProperty("rich");
      }
      for (const listed of await store.listPosts(u.id, { limit: 10 }))
        expect(listed).not.toHaveProperty("rich");
      expect((await store.getPost(u.id, plain.id))!.media).toBe("https://example.com/a.png");
    });

    it("transitionPost replaces the rich content with the targets, keeps it when the patch does not name it, and {} removes it", async () => {
      const u = await user();
      const p = post(u.id, { platforms: ["x", "bluesky"], rich: rich() });
      await store.insertPost(p, [target(p.id, "x"), target(p.id, "bluesky")]);
      // An edit that names other fields leaves the rich content as it is.
      const renamed = await store.transitionPost(p.id, ["scheduled"], { caption: "Renamed" });
      expect(renamed).toEqual({ ...p, caption: "Renamed" });
      // A PATCH that changes it: the new content replaces the old whole, with the targets.
      const next: RichContent = {
        media: [{ ref: "https://example.com/z.png", alt: "Z" }],
        first_comment: "Only a comment now",
      };
      const targets = [
        target(p.id, "x", { parts: [part("Renamed")], first_comment: comment("Only a comment now") }),
        target(p.id, "bluesky", { parts: [part("Renamed")], first_comment: comment("Only a comment now") }),
      ];
      const edited = await store.transitionPost(p.id, ["scheduled"], { rich: next }, targets);
      expect(edited).toEqual({ ...p, caption: "Renamed", rich: next });
      expect(await store.getPost(u.id, p.id)).toEqual({ ...p, caption: "Renamed", rich: next });
      expect((await store.listPosts(u.id, { limit: 1 }))[0]).toEqual({
        ...p,
        caption: "Renamed",
        rich: next,
      });
      expect(await store.getTargets(p.id)).toEqual(targets);
      // {} removes it.
      const cleared = await store.transitionPost(p.id, ["scheduled"], { rich: {} });
      expect(cleared).not.toHaveProperty("rich");
      expect(await store.getPost(u.id, p.id)).not.toHaveProperty("rich");
      // A refused compare-and-set writes none of it.
      expect(await store.transitionPost(p.id, ["draft"], { rich: rich() })).toBeNull();
      expect(await store.getPost(u.id, p.id)).not.toHaveProperty("rich");
    });
  });

  describe("scheduling steps", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    it("claimDuePosts moves due scheduled posts to publishing, oldest due first, and never hands one out twice", async () => {
      const u = await user();
      const late = post(u.id, { scheduled_at: T0 + 2000 });
      const early = post(u.id, { scheduled_at: T0 + 1000 });
      const future = post(u.id, { scheduled_at: T0 + 10_000 });
      for (const p of [late, early, future]) await store.insertPost(p, [target(p.id)]);
      const [a, b] = await Promise.all([
        store.claimDuePosts(T0 + 5000, 10),
        store.claimDuePosts(T0 + 5000, 10),
      ]);
      // Claims made together may share the due posts (a store with row locks skips the rows another
      // claim holds), but between them each post is handed out once, and each claim is in due order.
      const claimed = [...a!, ...b!];
      expect(claimed.map((p) => p.id).sort()).toEqual([early.id, late.id].sort());
      for (const batch of [a!, b!]) {
        const order = [early.id, late.id].filter((id) => batch.some((p) => p.id === id));
        expect(batch.map((p) => p.id)).toEqual(order);
      }
      expect(claimed.every((p) => p.status === "publishing")).toBe(true);
      expect((await store.getPost(u.id, early.id))!.status).toBe("publishing");
      expect((await store.getPost(u.id, future.id))!.status).toBe("scheduled");
      expect(await store.claimDuePosts(T0 + 5000, 10)).toEqual([]);
    });

    it("claimDuePosts includes a post due exactly now, respects the limit, and skips other statuses", async () => {
      const u = await user();
      const posts = [0, 1, 2].map((i) => post(u.id, { scheduled_at: T0 + i }));
      const draft = post(u.id, { status: "draft", scheduled_at: T0 });
      for (const p of [...posts, draft]) await store.insertPost(p, []);
      expect((await store.claimDuePosts(T0, 10)).map((p) => p.id)).toEqual([posts[0]!.id]);
      expect((await store.claimDuePosts(T0 + 10, 1)).map((p) => p.id)).toEqual([posts[1]!.id]);
      expect((await store.claimDuePosts(T0 + 10, 1)).map((p) => p.id)).toEqual([posts[2]!.id]);
      expect(await store.claimDuePosts(T0 + 10, 10)).toEqual([]);
    });

    it("many concurrent claims hand each post out exactly once", async () => {
      const u = await user();
      const posts = Array.from({ length: 20 }, (_, i) => post(u.id, { scheduled_at: T0 + i }));
      for (const p of posts) await store.insertPost(p, []);
      const batches = await Promise.all(Array.from({ length: 8 }, () => store.claimDuePosts(T0 + 100, 3)));
      const more = await store.claimDuePosts(T0 + 100, 100);
      const ids = [...batches.flat(), ...more].map((p) => p.id);
      expect(ids.sort()).toEqual(posts.map((p) => p.id).sort());
    });

    it("nextDueAt is the earliest scheduled_at among scheduled posts, or null", async () => {
      const u = await user();
      expect(await store.nextDueAt()).toBeNull();
      await store.insertPost(post(u.id, { scheduled_at: T0 + 500 }), []);
      await store.insertPost(post(u.id, { scheduled_at: T0 + 100, status: "draft" }), []);
      const soon = post(u.id, { scheduled_at: T0 + 200 });
      await store.insertPost(soon, []);
      expect(await store.nextDueAt()).toBe(T0 + 200);
      await store.claimDuePosts(T0 + 200, 10);
      expect(await store.nextDueAt()).toBe(T0 + 500);
    });

    it("deletePost against a claim: a deleted post is not claimed; a claimed post deleted cannot complete", async () => {
      const u = await user();
      const first = post(u.id);
      const second = post(u.id);
      await store.insertPost(first, [target(first.id)]);
      await store.insertPost(second, [target(second.id)]);
      await store.deletePost(u.id, first.id);
      const claimed = await store.claimDuePosts(T0 + 60_000, 10);
      expect(claimed.map((p) => p.id)).toEqual([second.id]);
      const removed = await store.deletePost(u.id, second.id);
      expect(removed!.status).toBe("publishing");
      const done = await store.transitionPost(
        second.id,
        ["publishing"],
        { status: "published", published_at: T0 },
        [],
        {
          events: [event(u.id)],
        },
      );
      expect(done).toBeNull();
      expect(await store.listEvents(u.id)).toEqual([]);
    });

    it("releaseInterruptedPublishing returns publishing posts to scheduled (created_at as due time when none)", async () => {
      if (store.shared) return; // see "a shared store leases each claim"
      const u = await user();
      const scheduled = post(u.id, { scheduled_at: T0 + 100 });
      const now = post(u.id, { status: "publishing", scheduled_at: null, created_at: T0 + 7 });
      await store.insertPost(scheduled, []);
      await store.insertPost(now, []);
      await store.claimDuePosts(T0 + 100, 10);
      expect(await store.releaseInterruptedPublishing()).toBe(2);
      expect(await store.getPost(u.id, scheduled.id)).toMatchObject({
        status: "scheduled",
        scheduled_at: T0 + 100,
      });
      expect(await store.getPost(u.id, now.id)).toMatchObject({
        status: "scheduled",
        scheduled_at: T0 + 7,
      });
      expect(await store.releaseInterruptedPublishing()).toBe(0);
      expect(await store.nextDueAt()).toBe(T0 + 7);
    });
  });
}
