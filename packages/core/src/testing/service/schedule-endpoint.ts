import { describe, expect, it } from "vitest";
import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import type { Harness } from "./harness.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function scheduleEndpointTests(h: Harness): void {
  describe("POST /schedule", () => {
    it("at an exact time: 201 with the post scheduled then", async () => {
      const user = await h.user();
      const at = h.clock.now() + 2 * HOUR;
      const res = await user.post("/schedule", {
        caption: "Exact",
        platforms: ["x"],
        at: new Date(at).toISOString(),
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        status: "scheduled",
        scheduled_at: at,
        published_at: null,
        platforms: ["x"],
      });
      await h.clock.advance(2 * HOUR);
      expect((await user.get(`/posts/${res.body.id}`)).body.status).toBe("published");
    });

    it("at follows the schedule_at rules, named at in the messages", async () => {
      const user = await h.user();
      const past = await user.post("/schedule", {
        caption: "Late",
        platforms: ["x"],
        at: h.clock.now() - 120_000,
      });
      expect(past.status).toBe(400);
      expect(past.body.error).toMatch(/^at .* is in the past/);
      const bad = await user.post("/schedule", { caption: "Bad", platforms: ["x"], at: "soonish" });
      expect(bad.body.error).toMatch(/^at "soonish" is not a time/);
      const missing = await user.post("/schedule", { caption: "None", platforms: ["x"] });
      expect(missing.body).toEqual({
        error:
          'at must be Unix seconds, Unix milliseconds, an ISO 8601 string with a zone offset, or "next".',
      });
    });

    it("the POST /posts rules apply in the same order", async () => {
      const user = await h.user({ accounts: ["x", "instagram"] });
      expect(
        (await user.post("/schedule", { caption: "Hi", platforms: ["myspace"], at: "next" })).body,
      ).toEqual({
        error: CONTRACT_MESSAGES.noConnectedNetwork,
      });
      expect((await user.post("/schedule", { platforms: ["x"], at: "next" })).body.error).toMatch(
        /^The post is empty/,
      );
      expect(
        (await user.post("/schedule", { caption: "Hi", platforms: ["instagram"], at: "next" })).body.error,
      ).toMatch(/^instagram needs media/);
    });

    it('"next" without reported engagement takes the default grid (09:00, 12:00, 17:00 UTC), at least 5 minutes ahead', async () => {
      const user = await h.user();
      const now = h.clock.now();
      const day = Math.floor(now / DAY) * DAY;
      const at = (await user.post("/schedule", { caption: "Grid", platforms: ["x"], at: "next" })).body
        .scheduled_at;
      const expected = [9, 12, 17, 33].map((hour) => day + hour * HOUR).find((t) => t >= now + 5 * 60_000);
      expect(at).toBe(expected);
    });

    it('"next" puts at most one post per network in a slot', async () => {
      const user = await h.user();
      const first = (await user.post("/schedule", { caption: "1", platforms: ["x"], at: "next" })).body
        .scheduled_at;
      const second = (await user.post("/schedule", { caption: "2", platforms: ["x", "bluesky"], at: "next" }))
        .body.scheduled_at;
      const third = (await user.post("/schedule", { caption: "3", platforms: ["linkedin"], at: "next" })).body
        .scheduled_at;
      expect(second).toBeGreaterThan(first);
      expect(third).toBe(first);
      for (const t of [first, second, third]) expect([9, 12, 17]).toContain(new Date(t).getUTCHours());
    });

    it('"next" does not count one reported post as a best hour: the default grid decides', async () => {
      const user = await h.user();
      const lucky = await user.createPost({ caption: "one lucky post", platforms: ["x"] });
      await user.post("/sandbox/metrics", { post_id: lucky.id, platform: "x", reach: 100, likes: 90 });
      const res = await user.post("/schedule", { caption: "Soon", platforms: ["x"], at: "next" });
      expect(res.status).toBe(201);
      expect([9, 12, 17]).toContain(new Date(res.body.scheduled_at).getUTCHours());
      expect(res.body.scheduled_at - h.clock.now()).toBeLessThanOrEqual(DAY);
    });

    it('"next" picks the hour of the week with the best reported engagement for those networks', async () => {
      const user = await h.user();
      const start = h.clock.now();
      // Three posts with reported figures make an hour count (fewer are not evidence).
      const publishWithFigures = async (caption: string, likes: number) => {
        for (let i = 0; i < 3; i++) {
          const post = await user.createPost({ caption: `${caption} ${i}`, platforms: ["x"] });
          await user.post("/sandbox/metrics", { post_id: post.id, platform: "x", reach: 100, likes });
          await h.clock.advance(60_000);
        }
      };
      await publishWithFigures("good hour", 20);
      await h.clock.advance(3 * HOUR);
      await publishWithFigures("weak hour", 1);
      const res = await user.post("/schedule", { caption: "Best", platforms: ["x"], at: "next" });
      expect(res.status).toBe(201);
      // The best hour is the one `good` published in; its next occurrence is a week after it.
      expect(res.body.scheduled_at).toBe(Math.floor(start / HOUR) * HOUR + 7 * DAY);
      // Another network has no history: the default grid.
      const other = await user.post("/schedule", { caption: "Grid", platforms: ["linkedin"], at: "next" });
      expect([9, 12, 17]).toContain(new Date(other.body.scheduled_at).getUTCHours());
    });
  });
}
