import { beforeEach, describe, expect, it } from "vitest";
import { newId } from "../../ids.ts";
import type { Store } from "../../store/types.ts";
import { type StoreFixture, T0 } from "./fixture.ts";

/** Metrics read from the networks, the sums analytics answers with, and the daily analytics event. */
export function describeAnalytics(fixture: StoreFixture): void {
  const { user, post, target, webhook } = fixture;
  let store: Store;

  describe("metrics and analytics reads", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    it("reportMetrics never lowers a figure; null for a target that does not exist", async () => {
      const u = await user();
      const p = post(u.id, { status: "published" });
      await store.insertPost(p, [target(p.id, "x", { status: "published" })]);
      expect(
        await store.reportMetrics(p.id, "x", { reach: 100, likes: 5, comments: 2, shares: 1 }),
      ).toMatchObject({
        reach: 100,
        likes: 5,
        comments: 2,
        shares: 1,
      });
      expect(
        await store.reportMetrics(p.id, "x", { reach: 50, likes: 9, comments: 0, shares: 1 }),
      ).toMatchObject({
        reach: 100,
        likes: 9,
        comments: 2,
        shares: 1,
      });
      expect((await store.getTargets(p.id))[0]).toMatchObject({
        reach: 100,
        likes: 9,
        comments: 2,
        shares: 1,
      });
      expect(
        await store.reportMetrics(p.id, "bluesky", { reach: 1, likes: 0, comments: 0, shares: 0 }),
      ).toBeNull();
      expect(
        await store.reportMetrics("post_missing", "x", { reach: 1, likes: 0, comments: 0, shares: 0 }),
      ).toBeNull();
    });

    it("sumTargetMetrics sums each post's targets by post id; posts without targets are absent", async () => {
      const u = await user();
      const two = post(u.id, { status: "published", platforms: ["x", "bluesky"] });
      const one = post(u.id, { status: "published" });
      await store.insertPost(two, [
        target(two.id, "x", { status: "published", reach: 100, likes: 5, comments: 2, shares: 1 }),
        target(two.id, "bluesky", { status: "published", reach: 20, likes: 1, comments: 0, shares: 3 }),
      ]);
      await store.insertPost(one, [target(one.id, "x", { status: "published", reach: 7, likes: 1 })]);
      const sums = await store.sumTargetMetrics([two.id, one.id, "post_missing"]);
      expect(sums.get(two.id)).toEqual({ reach: 120, likes: 6, comments: 2, shares: 4 });
      expect(sums.get(one.id)).toEqual({ reach: 7, likes: 1, comments: 0, shares: 0 });
      expect(sums.has("post_missing")).toBe(false);
      expect((await store.sumTargetMetrics([])).size).toBe(0);
    });

    it("listPublishedTargets and countPublishedPosts cover the user's published posts only", async () => {
      const a = await user();
      const b = await user();
      const published = post(a.id, { status: "published", platforms: ["x", "bluesky"] });
      const draft = post(a.id, { status: "draft" });
      const other = post(b.id, { status: "published" });
      await store.insertPost(published, [
        target(published.id, "x", { status: "published", reach: 3 }),
        target(published.id, "bluesky", { status: "failed" }),
      ]);
      await store.insertPost(draft, [target(draft.id, "x", { status: "failed" })]);
      await store.insertPost(other, [target(other.id, "x", { status: "published" })]);
      expect(await store.listPublishedTargets(a.id)).toEqual([
        target(published.id, "x", { status: "published", reach: 3 }),
      ]);
      expect(await store.countPublishedPosts(a.id)).toBe(1);
      expect(await store.countPublishedPosts(b.id)).toBe(1);
    });

    it("sumPublishedMetricsByPlatform sums and counts, per network, the published targets of the user's published posts", async () => {
      const a = await user();
      const b = await user();
      const first = post(a.id, { status: "published", platforms: ["x", "bluesky", "linkedin"] });
      const second = post(a.id, { status: "published", platforms: ["x"] });
      const scheduled = post(a.id, { status: "scheduled" });
      const other = post(b.id, { status: "published" });
      await store.insertPost(first, [
        target(first.id, "x", { status: "published", reach: 100, likes: 5, comments: 2, shares: 1 }),
        target(first.id, "bluesky", { status: "published", reach: 20, likes: 1, comments: 0, shares: 3 }),
        target(first.id, "linkedin", { status: "failed" }),
      ]);
      await store.insertPost(second, [
        target(second.id, "x", { status: "published", reach: 7, likes: 1, comments: 4, shares: 0 }),
      ]);
      await store.insertPost(scheduled, [target(scheduled.id, "x", { status: "pending", reach: 50 })]);
      await store.insertPost(other, [target(other.id, "x", { status: "published", reach: 1000 })]);
      const sums = await store.sumPublishedMetricsByPlatform(a.id);
      expect(sums.sort((l, r) => (l.platform < r.platform ? -1 : 1))).toEqual([
        { platform: "bluesky", posts: 1, reach: 20, likes: 1, comments: 0, shares: 3 },
        { platform: "x", posts: 2, reach: 107, likes: 6, comments: 6, shares: 1 },
      ]);
      expect(await store.sumPublishedMetricsByPlatform(b.id)).toEqual([
        { platform: "x", posts: 1, reach: 1000, likes: 0, comments: 0, shares: 0 },
      ]);
      expect(await store.sumPublishedMetricsByPlatform("user_nobody")).toEqual([]);
    });
  });

  describe("daily analytics", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    it("settleAnalyticsDay writes a day's events and marks it settled once; an earlier or the same day writes nothing", async () => {
      const u = await user();
      const other = await user();
      const w = webhook(u.id, { events: ["analytics.daily"] });
      await store.createWebhook(w);
      expect(await store.lastAnalyticsDay(u.id)).toBeNull();
      const daily = (date: string) => ({
        id: newId("evt", T0),
        user_id: u.id,
        type: "analytics.daily" as const,
        created: Math.floor(T0 / 1000),
        data: { totalReach: 0, engagementRate: 0, postsPublished: 0, followers: 0, perPlatform: [], date },
      });
      expect(await store.settleAnalyticsDay(u.id, "2026-06-14", [daily("2026-06-14")])).toBe(true);
      expect(await store.settleAnalyticsDay(u.id, "2026-06-14", [daily("2026-06-14")])).toBe(false);
      expect(await store.settleAnalyticsDay(u.id, "2026-06-13", [daily("2026-06-13")])).toBe(false);
      expect(await store.settleAnalyticsDay(u.id, "2026-06-15", [])).toBe(true);
      expect(await store.lastAnalyticsDay(u.id)).toBe("2026-06-15");
      expect(await store.lastAnalyticsDay(other.id)).toBeNull();
      const events = await store.listEvents(u.id);
      expect(events.map((e) => (e.data as { date: string }).date)).toEqual(["2026-06-14"]);
      // Written like any event: owed to the endpoint that listens for it.
      const jobs = await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10);
      expect(jobs.map((j) => [j.webhook.id, j.event.id])).toEqual([[w.id, events[0]!.id]]);
    });

    it("of concurrent settlements of one day exactly one writes", async () => {
      const u = await user();
      const results = await Promise.all(
        Array.from({ length: 5 }, () => store.settleAnalyticsDay(u.id, "2026-06-14", [])),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });
}
