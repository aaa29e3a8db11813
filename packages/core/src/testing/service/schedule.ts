import { describe, expect, it } from "vitest";
import type { Harness } from "./harness.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function scheduleTests(h: Harness): void {
  describe("schedule_at parsing", () => {
    const scheduledAt = async (schedule_at: unknown) => {
      const user = await h.user();
      const res = await user.post("/posts", { caption: "Later", platforms: ["x"], schedule_at });
      expect(res.status, `${JSON.stringify(schedule_at)}: ${res.text}`).toBe(201);
      expect(res.body.status).toBe("scheduled");
      return res.body.scheduled_at as number;
    };
    const refused = async (schedule_at: unknown) => {
      const user = await h.user();
      const res = await user.post("/posts", { caption: "Later", platforms: ["x"], schedule_at });
      expect(res.status, JSON.stringify(schedule_at)).toBe(400);
      return res.body.error as string;
    };

    it("an integer below 1e11 is Unix seconds; scheduled_at answers in milliseconds", async () => {
      const seconds = Math.floor(h.clock.now() / 1000) + 3600;
      expect(await scheduledAt(seconds)).toBe(seconds * 1000);
    });

    it("an integer of 1e11 or more is Unix milliseconds", async () => {
      const ms = h.clock.now() + HOUR + 123;
      expect(await scheduledAt(ms)).toBe(ms);
    });

    it("99999999999 is seconds (the year 5138, so too far ahead) and 100000000000 is milliseconds (1973, so in the past)", async () => {
      expect(await refused(99_999_999_999)).toMatch(
        /^schedule_at 5138-11-16T09:46:39\.000Z is more than two years ahead/,
      );
      expect(await refused(100_000_000_000)).toMatch(/is in the past/);
    });

    it("a string of digits counts as that integer, seconds or milliseconds", async () => {
      const seconds = Math.floor(h.clock.now() / 1000) + 3600;
      expect(await scheduledAt(String(seconds))).toBe(seconds * 1000);
      const ms = h.clock.now() + HOUR + 7;
      expect(await scheduledAt(String(ms))).toBe(ms);
    });

    it("an ISO 8601 string with Z is read as UTC", async () => {
      const at = h.clock.now() + DAY;
      expect(await scheduledAt(new Date(at).toISOString())).toBe(at);
    });

    it("an ISO 8601 string with an offset is read at that offset", async () => {
      const at = Math.floor((h.clock.now() + DAY) / 60_000) * 60_000;
      const local = new Date(at + 2 * HOUR).toISOString().slice(0, 19);
      expect(await scheduledAt(`${local}+02:00`)).toBe(at);
      const west = new Date(at - 5.5 * HOUR).toISOString().slice(0, 19);
      expect(await scheduledAt(`${west}-05:30`)).toBe(at);
    });

    it("an ISO 8601 string with fractional seconds keeps the milliseconds", async () => {
      const at = Math.floor((h.clock.now() + DAY) / 1000) * 1000 + 250;
      expect(await scheduledAt(new Date(at).toISOString())).toBe(at);
    });

    it("an ISO 8601 string without an offset is refused: its instant is ambiguous", async () => {
      const local = new Date(h.clock.now() + DAY).toISOString().slice(0, 19);
      expect(await refused(local)).toBe(
        `schedule_at "${local}" has no zone offset, so its instant is ambiguous; add Z or an offset such as +02:00.`,
      );
    });

    it("a date without a time, non-integer numbers, booleans, objects and null are refused", async () => {
      const day = new Date(h.clock.now() + 2 * DAY).toISOString().slice(0, 10);
      for (const value of [day, 1.5, Number.MAX_VALUE, true, {}, [], null, "soon"]) {
        expect(await refused(value)).toMatch(/^schedule_at /);
      }
    });

    it("a due time up to 60 seconds in the past is accepted, scheduled, and published at once by the scheduler", async () => {
      const user = await h.user();
      const due = h.clock.now() - 60_000;
      const post = await user.createPost({ caption: "Skewed", platforms: ["x"], schedule_at: due });
      expect(post).toMatchObject({ status: "scheduled", scheduled_at: due });
      await h.clock.advance(0);
      const res = await user.get(`/posts/${post.id}`);
      expect(res.body).toMatchObject({ status: "published", scheduled_at: due, published_at: h.clock.now() });
    });

    it("a due time more than 60 seconds in the past answers 400", async () => {
      expect(await refused(h.clock.now() - 60_001)).toMatch(/^schedule_at .* is in the past/);
      expect(await refused(Math.floor(h.clock.now() / 1000) - 61)).toMatch(/is in the past/);
    });

    it("a due time 60 seconds ahead is scheduled and publishes when that time comes", async () => {
      const user = await h.user();
      const due = h.clock.now() + 60_000;
      const post = await user.createPost({ caption: "Soon", platforms: ["x"], schedule_at: due });
      await h.clock.advance(59_999);
      expect((await user.get(`/posts/${post.id}`)).body.status).toBe("scheduled");
      await h.clock.advance(1);
      expect((await user.get(`/posts/${post.id}`)).body.status).toBe("published");
    });
  });

  describe("scheduled publishing", () => {
    it("a scheduled post publishes at its due time, not before; a client polling GET /posts/{id} sees published", async () => {
      const user = await h.user();
      const due = h.clock.now() + HOUR;
      const post = await user.createPost({
        caption: "On time",
        platforms: ["x", "bluesky"],
        schedule_at: due,
      });
      await h.clock.advance(HOUR - 1);
      expect((await user.get(`/posts/${post.id}`)).body).toMatchObject({
        status: "scheduled",
        published_at: null,
      });
      await h.clock.advance(1);
      const res = await user.get(`/posts/${post.id}`);
      expect(res.body).toMatchObject({ status: "published", scheduled_at: due, published_at: due });
      const targets = (await user.get(`/posts/${post.id}/targets`)).body.data;
      expect(targets.map((t: { status: string }) => t.status)).toEqual(["published", "published"]);
    });

    it("each of several scheduled posts publishes at its own due time", async () => {
      const user = await h.user();
      const start = h.clock.now();
      const later = await user.createPost({ caption: "B", platforms: ["x"], schedule_at: start + 2 * HOUR });
      const sooner = await user.createPost({ caption: "A", platforms: ["x"], schedule_at: start + HOUR });
      const same = await user.createPost({ caption: "A2", platforms: ["x"], schedule_at: start + HOUR });
      await h.clock.advance(HOUR);
      expect((await user.get(`/posts/${sooner.id}`)).body).toMatchObject({
        status: "published",
        published_at: start + HOUR,
      });
      expect((await user.get(`/posts/${same.id}`)).body).toMatchObject({
        status: "published",
        published_at: start + HOUR,
      });
      expect((await user.get(`/posts/${later.id}`)).body.status).toBe("scheduled");
      await h.clock.advance(HOUR);
      expect((await user.get(`/posts/${later.id}`)).body).toMatchObject({
        status: "published",
        published_at: start + 2 * HOUR,
      });
    });

    it("a post scheduled after a later one still publishes at its own, earlier time", async () => {
      const user = await h.user();
      const start = h.clock.now();
      await user.createPost({ caption: "far", platforms: ["x"], schedule_at: start + 10 * DAY });
      const near = await user.createPost({
        caption: "near",
        platforms: ["x"],
        schedule_at: start + 5 * 60_000,
      });
      await h.clock.advance(5 * 60_000);
      expect((await user.get(`/posts/${near.id}`)).body).toMatchObject({
        status: "published",
        published_at: start + 5 * 60_000,
      });
    });

    it("a post due in 40 days publishes on time (beyond the 24.8-day timer limit)", async () => {
      const user = await h.user();
      const due = h.clock.now() + 40 * DAY;
      const post = await user.createPost({ caption: "Far", platforms: ["x"], schedule_at: due });
      await h.clock.advance(40 * DAY - 1);
      expect((await user.get(`/posts/${post.id}`)).body.status).toBe("scheduled");
      await h.clock.advance(1);
      expect((await user.get(`/posts/${post.id}`)).body).toMatchObject({
        status: "published",
        published_at: due,
      });
    });

    it("a scheduled post publishes once: one post.published event per network", async () => {
      const user = await h.user();
      const post = await user.createPost({
        caption: "Once",
        platforms: ["x", "linkedin"],
        schedule_at: h.clock.now() + HOUR,
      });
      await h.clock.advance(HOUR);
      await h.clock.advance(DAY);
      const published = (await h.store.listEvents(user.id)).filter((e) => e.type === "post.published");
      expect(published.map((e) => (e.data as { platform: string }).platform).sort()).toEqual([
        "linkedin",
        "x",
      ]);
      expect(published.every((e) => (e.data as { post_id: string }).post_id === post.id)).toBe(true);
    });

    it("a post in publishing shows that status and is listed under status=publishing", async () => {
      const user = await h.user();
      const post = await user.createPost({
        caption: "Mid",
        platforms: ["x"],
        schedule_at: h.clock.now() + 1000,
      });
      // Take the post as a scheduler would, without completing it.
      const claimed = await h.store.claimDuePosts(h.clock.now() + 1000, 10);
      expect(claimed.map((p) => p.id)).toEqual([post.id]);
      expect((await user.get(`/posts/${post.id}`)).body.status).toBe("publishing");
      const list = await user.get("/posts?status=publishing");
      expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([post.id]);
    });
  });
}
