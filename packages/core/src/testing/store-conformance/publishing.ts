import { beforeEach, describe, expect, it } from "vitest";
import type { NetworkId } from "../../contract/networks.ts";
import type { PartRecord, PostRecord, Store } from "../../store/types.ts";
import { type StoreFixture, T0 } from "./fixture.ts";

/** One message of a target, not sent yet. */
const threadPart = (text: string): PartRecord => ({
  text,
  media: [],
  status: "pending",
  remote_id: null,
  permalink: null,
});

/** Publishing targets: attempts claimed, outcomes settled with their post. */
export function describePublishing(fixture: StoreFixture): void {
  const { user, post, target, event } = fixture;
  let store: Store;

  describe("publishing targets", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    it("beginTargetAttempts starts each due pending target once: in flight, counted, timed", async () => {
      const u = await user();
      const p = post(u.id, { status: "publishing", platforms: ["x", "bluesky", "discord"] });
      await store.insertPost(p, [
        target(p.id, "x"),
        target(p.id, "bluesky", { next_attempt_at: T0 + 60_000 }),
        target(p.id, "discord", { status: "published" }),
      ]);
      const started = await store.beginTargetAttempts(p.id, ["x", "bluesky", "discord"], T0);
      expect(started).toEqual([
        { ...target(p.id, "x"), in_flight: true, attempts: 1, attempted_at: T0, next_attempt_at: null },
      ]);
      expect(await store.beginTargetAttempts(p.id, ["x"], T0 + 1)).toEqual([]);
      const concurrent = await Promise.all([
        store.beginTargetAttempts(p.id, ["bluesky"], T0 + 60_000),
        store.beginTargetAttempts(p.id, ["bluesky"], T0 + 60_000),
      ]);
      expect(concurrent.flat()).toHaveLength(1);
    });

    it("beginAllAttempts, where a store has it, is getTargets and beginTargetAttempts of every target in one step", async (ctx) => {
      if (!store.beginAllAttempts) return ctx.skip();
      const u = await user();
      const p = post(u.id, { status: "publishing", platforms: ["x", "bluesky", "discord"] });
      const waiting = target(p.id, "bluesky", { next_attempt_at: T0 + 60_000 });
      const done = target(p.id, "discord", { status: "published" });
      await store.insertPost(p, [target(p.id, "x"), waiting, done]);
      const startedX = {
        ...target(p.id, "x"),
        in_flight: true,
        attempts: 1,
        attempted_at: T0,
        next_attempt_at: null,
      };
      expect(await store.beginAllAttempts(p.id, T0)).toEqual({
        targets: [startedX, waiting, done],
        started: [startedX],
      });
      expect(await store.beginAllAttempts(p.id, T0 + 1)).toEqual({
        targets: [startedX, waiting, done],
        started: [],
      });
      const concurrent = await Promise.all([
        store.beginAllAttempts(p.id, T0 + 60_000),
        store.beginAllAttempts(p.id, T0 + 60_000),
      ]);
      expect(concurrent.flatMap((c) => c.started).map((t) => t.platform)).toEqual(["bluesky"]);
      expect(await store.beginAllAttempts("post_missing", T0)).toEqual({ targets: [], started: [] });
    });

    it("finishTargets writes outcomes and settles the post: published, publishing while pending, draft when all failed", async () => {
      const u = await user();
      const p = post(u.id, { status: "publishing", platforms: ["x", "bluesky"], scheduled_at: T0 });
      await store.insertPost(p, [target(p.id, "x"), target(p.id, "bluesky")]);
      const failedX = target(p.id, "x", { status: "failed", error: "X: refused" });
      const stillPublishing = await store.finishTargets(p.id, [failedX], T0 + 5, {
        events: [event(u.id, "post.failed")],
      });
      expect(stillPublishing).toMatchObject({ status: "publishing", published_at: null });
      const publishedBluesky = target(p.id, "bluesky", {
        status: "published",
        permalink: "https://bsky.app/x",
        published_at: T0 + 9,
      });
      const settled = await store.finishTargets(p.id, [publishedBluesky], T0 + 9, (written) => ({
        events: [event(u.id, written.status === "published" ? "post.published" : "post.failed")],
      }));
      expect(settled).toMatchObject({ status: "published", published_at: T0 + 9 });
      expect(await store.getTargets(p.id)).toEqual([failedX, publishedBluesky]);
      expect((await store.listEvents(u.id)).map((e) => e.type)).toEqual(["post.failed", "post.published"]);
      // A later write keeps the first publication time.
      expect(await store.finishTargets(p.id, [], T0 + 99)).toMatchObject({ published_at: T0 + 9 });

      const q = post(u.id, { status: "publishing", scheduled_at: T0 });
      await store.insertPost(q, [target(q.id, "x")]);
      expect(
        await store.finishTargets(q.id, [target(q.id, "x", { status: "failed", error: "no" })], T0),
      ).toMatchObject({
        status: "draft",
        scheduled_at: null,
        published_at: null,
      });
      expect(await store.finishTargets("post_missing", [], T0, { events: [event(u.id)] })).toBeNull();
      expect(await store.listEvents(u.id)).toHaveLength(2);
    });

    it("finishTargets never writes over a target already settled: a late outcome, and what it would announce, are dropped", async () => {
      const u = await user();
      const p = post(u.id, { status: "publishing", platforms: ["x", "bluesky"], scheduled_at: T0 });
      await store.insertPost(p, [target(p.id, "x"), target(p.id, "bluesky")]);
      const first = target(p.id, "x", {
        status: "published",
        permalink: "https://x.com/i/1",
        published_at: T0 + 5,
      });
      // One event per network written, as the publisher announces them.
      const writtenBy: NetworkId[][] = [];
      const announce = (_: PostRecord, written: ReadonlySet<NetworkId>) => {
        writtenBy.push([...written]);
        return { events: [...written].map(() => event(u.id)) };
      };
      await store.finishTargets(p.id, [first], T0 + 5, announce);
      // Another attempt of the same post (an instance that took it over) comes late with its own outcome,
      // beside an outcome for a network still pending: only that one is written and announced.
      const late = target(p.id, "x", {
        status: "published",
        permalink: "https://x.com/i/2",
        published_at: T0 + 9,
      });
      const bluesky = target(p.id, "bluesky", { status: "failed", error: "Bluesky: refused" });
      const settled = await store.finishTargets(p.id, [late, bluesky], T0 + 9, announce);
      expect(settled).toMatchObject({ status: "published", published_at: T0 + 5 });
      expect(await store.getTargets(p.id)).toEqual([first, bluesky]);
      expect(writtenBy).toEqual([["x"], ["bluesky"]]);
      // A failed target is as final: a late "published" does not revive it.
      const lateBluesky = target(p.id, "bluesky", { status: "published", permalink: "https://bsky.app/2" });
      await store.finishTargets(p.id, [lateBluesky], T0 + 12, announce);
      expect((await store.getTargets(p.id))[1]).toEqual(bluesky);
      expect(writtenBy).toEqual([["x"], ["bluesky"], []]);
      expect(await store.listEvents(u.id)).toHaveLength(2);
    });

    it("claimDueTargets hands out due retries once, earliest first, only of publishing or published posts", async () => {
      const u = await user();
      const p = post(u.id, { status: "publishing", platforms: ["x", "bluesky"] });
      await store.insertPost(p, [
        target(p.id, "x", { next_attempt_at: T0 + 2_000, attempts: 1 }),
        target(p.id, "bluesky", { next_attempt_at: T0 + 1_000, attempts: 2 }),
      ]);
      const d = post(u.id, { status: "draft" });
      await store.insertPost(d, [target(d.id, "x", { next_attempt_at: T0 })]);
      expect(await store.nextTargetAttemptAt()).toBe(T0);
      expect(await store.claimDueTargets(T0 + 500, 10)).toEqual([]);
      const claimed = await store.claimDueTargets(T0 + 5_000, 10);
      expect(
        claimed.map((c) => [c.post.id, c.target.platform, c.target.attempts, c.target.in_flight]),
      ).toEqual([
        [p.id, "bluesky", 3, true],
        [p.id, "x", 2, true],
      ]);
      expect(await store.claimDueTargets(T0 + 5_000, 10)).toEqual([]);
    });

    it("claimDueTargets claims at most one target per account at a time, its earliest due; a later claim takes the next", async () => {
      const [u, v] = [await user(), await user()];
      const first = post(u.id, { status: "publishing", platforms: ["x", "bluesky"] });
      const second = post(u.id, { status: "publishing", platforms: ["x"] });
      const other = post(v.id, { status: "publishing", platforms: ["x"] });
      await store.insertPost(first, [
        target(first.id, "x", { next_attempt_at: T0 + 1_000, attempts: 1 }),
        target(first.id, "bluesky", { next_attempt_at: T0 + 3_000, attempts: 1 }),
      ]);
      await store.insertPost(second, [target(second.id, "x", { next_attempt_at: T0 + 500, attempts: 1 })]);
      await store.insertPost(other, [target(other.id, "x", { next_attempt_at: T0 + 2_000, attempts: 1 })]);
      const claim = async () =>
        (await store.claimDueTargets(T0 + 5_000, 10)).map((c) => [c.post.id, c.target.platform]);
      // u's x account: only its earliest (second's), beside u's bluesky and v's x.
      expect(await claim()).toEqual([
        [second.id, "x"],
        [other.id, "x"],
        [first.id, "bluesky"],
      ]);
      expect(await claim()).toEqual([[first.id, "x"]]);
      expect(await claim()).toEqual([]);
    });

    it("releaseInterruptedTargets marks attempts cut off before a time as of unknown outcome and due now", async () => {
      const u = await user();
      const p = post(u.id, { status: "publishing", platforms: ["x", "bluesky"] });
      await store.insertPost(p, [target(p.id, "x"), target(p.id, "bluesky")]);
      expect(await store.oldestAttemptInFlight()).toBeNull();
      await store.beginTargetAttempts(p.id, ["x"], T0);
      await store.beginTargetAttempts(p.id, ["bluesky"], T0 + 10_000);
      expect(await store.oldestAttemptInFlight()).toBe(T0);
      expect(await store.releaseInterruptedTargets(T0 + 5_000, T0 + 20_000)).toBe(1);
      expect(await store.oldestAttemptInFlight()).toBe(T0 + 10_000);
      const [x, bluesky] = await store.getTargets(p.id);
      expect(x).toMatchObject({
        in_flight: false,
        outcome_unknown: true,
        next_attempt_at: T0 + 20_000,
        attempts: 1,
      });
      expect(bluesky).toMatchObject({ in_flight: true, outcome_unknown: false });
      expect(await store.nextTargetAttemptAt()).toBe(T0 + 20_000);
    });

    it("saveTargetStep keeps a publish's progress on the attempt in flight, through a crash and the next attempt", async () => {
      const u = await user();
      const p = post(u.id, { mode: "live", status: "publishing", platforms: ["instagram", "threads"] });
      await store.insertPost(p, [target(p.id, "instagram"), target(p.id, "threads")]);
      // Not in flight: nothing is saved.
      expect(await store.saveTargetStep(p.id, "instagram", 0, '{"container":"1"}')).toBe(false);
      await store.beginTargetAttempts(p.id, ["instagram"], T0);
      expect(await store.saveTargetStep(p.id, "instagram", 2, '{"container":"1"}')).toBe(false);
      expect(await store.saveTargetStep(p.id, "instagram", 1, '{"container":"17"}')).toBe(true);
      expect(await store.saveTargetStep("post_missing", "instagram", 1, "{}")).toBe(false);
      const [instagram, threads] = await store.getTargets(p.id);
      expect(instagram).toMatchObject({ in_flight: true, publish_step: '{"container":"17"}' });
      expect(threads!.publish_step).toBeNull();
      // A crash: the step outlives the attempt, and the next attempt starts with it.
      expect(await store.releaseInterruptedTargets(T0 + 1, T0 + 5)).toBe(1);
      expect(await store.saveTargetStep(p.id, "instagram", 1, '{"container":"99"}')).toBe(false);
      const [claimed] = await store.claimDueTargets(T0 + 5, 10);
      expect(claimed!.target).toMatchObject({
        platform: "instagram",
        attempts: 2,
        outcome_unknown: true,
        publish_step: '{"container":"17"}',
      });
      expect(await store.saveTargetStep(p.id, "instagram", 2, '{"container":"17","sent":true}')).toBe(true);
      // The outcome written replaces it (here: cleared once published).
      const done = {
        ...claimed!.target,
        status: "published" as const,
        in_flight: false,
        publish_step: null,
      };
      await store.finishTargets(p.id, [done], T0 + 9);
      expect((await store.getTargets(p.id))[0]).toEqual(done);
      const kept = { ...threads!, next_attempt_at: T0 + 60_000, publish_step: '{"container":"5"}' };
      await store.finishTargets(p.id, [kept], T0 + 10);
      expect((await store.getTargets(p.id))[1]).toEqual(kept);
    });

    it("a target's parts, first comment and notes go with it: insert, attempts begun and claimed, outcomes written, a retry's replacement", async () => {
      const u = await user();
      const p = post(u.id, {
        mode: "live",
        status: "publishing",
        platforms: ["x", "bluesky", "pinterest", "discord"],
        rich: { thread: [{ caption: "Two." }, { caption: "Three." }], first_comment: "Link in here" },
      });
      const x = target(p.id, "x", {
        text: "One.",
        parts: [threadPart("One."), threadPart("Two."), threadPart("Three.")],
        first_comment: { text: "Link in here", status: "pending", permalink: null, error: null },
        notes: [],
      });
      // Written before rich posts: none of the fields (and they come back absent, not null or empty).
      const bluesky = target(p.id, "bluesky");
      const pinterest = target(p.id, "pinterest", {
        parts: [
          {
            ...threadPart("One.\n\nTwo.\n\nThree."),
            media: [{ ref: "https://example.com/a.png", alt: "A" }, { ref: "med_1" }],
          },
        ],
        first_comment: { text: "Link in here", status: "not_carried", permalink: null, error: null },
        notes: ["the thread's parts are joined to the text", "pinterest takes no first comment"],
      });
      const discord = target(p.id, "discord", { parts: [threadPart("One.")], first_comment: null });
      await store.insertPost(p, [x, bluesky, pinterest, discord]);
      const stored = await store.getTargets(p.id);
      expect(stored).toEqual([x, bluesky, pinterest, discord]);
      for (const field of ["parts", "first_comment", "notes"]) expect(stored[1]).not.toHaveProperty(field);
      expect(stored[3]!.first_comment).toBeNull();
      expect(stored[3]).not.toHaveProperty("notes");

      const [begun] = await store.beginTargetAttempts(p.id, ["x"], T0);
      expect(begun).toEqual({ ...x, in_flight: true, attempts: 1, attempted_at: T0, next_attempt_at: null });
      if (store.beginAllAttempts) {
        const all = await store.beginAllAttempts(p.id, T0);
        expect(all.targets.map((t) => t.parts)).toEqual([x.parts, undefined, pinterest.parts, discord.parts]);
        expect(all.started.find((t) => t.platform === "pinterest")).toMatchObject({ notes: pinterest.notes });
      }

      // The thread stopped at its second part: the first stays published, the first comment went out.
      const failedX = {
        ...begun!,
        status: "failed" as const,
        in_flight: false,
        error: "X: part 2 of 3: duplicate content",
        parts: [
          {
            ...threadPart("One."),
            status: "published" as const,
            remote_id: "1",
            permalink: "https://x.com/i/1",
          },
          { ...threadPart("Two."), status: "failed" as const },
          threadPart("Three."),
        ],
        first_comment: {
          text: "Link in here",
          status: "published" as const,
          permalink: "https://x.com/i/9",
          error: null,
        },
        notes: ["part 2 of 3 failed: duplicate content"],
      };
      // Outcomes of two posts written together (as publishes finishing at once are).
      const q = post(u.id, { status: "publishing", platforms: ["x"] });
      const qx = target(q.id, "x", { parts: [threadPart("Q")] });
      await store.insertPost(q, [qx]);
      const publishedQx = {
        ...qx,
        status: "published" as const,
        parts: [
          {
            ...threadPart("Q"),
            status: "published" as const,
            remote_id: "7",
            permalink: "https://x.com/i/7",
          },
        ],
        notes: ["cut to 280 characters"],
      };
      await Promise.all([
        store.finishTargets(p.id, [failedX], T0 + 5),
        store.finishTargets(q.id, [publishedQx], T0 + 5),
      ]);
      expect((await store.getTargets(p.id))[0]).toEqual(failedX);
      expect(await store.getTargets(q.id)).toEqual([publishedQx]);

      // A retry puts the failed target back, its progress kept, and the next attempt is handed it.
      const retried = { ...failedX, status: "pending" as const, error: null, next_attempt_at: T0 + 10 };
      const targets = (await store.getTargets(p.id)).map((t) => (t.platform === "x" ? retried : t));
      await store.transitionPost(p.id, ["publishing"], {}, targets);
      expect(await store.getTargets(p.id)).toEqual(targets);
      const [claimed] = await store.claimDueTargets(T0 + 10, 10);
      expect(claimed!.post.rich).toEqual(p.rich);
      expect(claimed!.target).toEqual({
        ...retried,
        in_flight: true,
        attempts: 2,
        attempted_at: T0 + 10,
        next_attempt_at: null,
      });
    });

    it("recentAttempts lists an account's attempts since a time, per user, mode and network, in flight or done", async () => {
      const u = await user();
      const other = await user();
      const live = post(u.id, { mode: "live", status: "publishing", platforms: ["telegram"] });
      const live2 = post(u.id, { mode: "live", status: "publishing", platforms: ["telegram"] });
      const sandbox = post(u.id, { mode: "test", status: "publishing", platforms: ["telegram"] });
      const theirs = post(other.id, { mode: "live", status: "publishing", platforms: ["telegram"] });
      for (const p of [live, live2, sandbox, theirs]) await store.insertPost(p, [target(p.id, "telegram")]);
      await store.beginTargetAttempts(live.id, ["telegram"], T0);
      await store.beginTargetAttempts(live2.id, ["telegram"], T0 + 3_000);
      await store.beginTargetAttempts(sandbox.id, ["telegram"], T0 + 1_000);
      await store.beginTargetAttempts(theirs.id, ["telegram"], T0 + 2_000);
      expect(await store.recentAttempts(u.id, "live", "telegram", T0)).toEqual([
        { at: T0, in_flight: true },
        { at: T0 + 3_000, in_flight: true },
      ]);
      expect(await store.recentAttempts(u.id, "live", "telegram", T0 + 1)).toEqual([
        { at: T0 + 3_000, in_flight: true },
      ]);
      expect(await store.recentAttempts(u.id, "live", "discord", 0)).toEqual([]);
      // Once written, an attempt counts from when it ended.
      await store.finishTargets(
        live.id,
        [target(live.id, "telegram", { status: "published", attempts: 1, attempted_at: T0 + 4_000 })],
        T0 + 4_000,
      );
      expect(await store.recentAttempts(u.id, "live", "telegram", T0)).toEqual([
        { at: T0 + 3_000, in_flight: true },
        { at: T0 + 4_000, in_flight: false },
      ]);
    });

    it("metrics reads are claimed when due and leased; scheduleMetricsRead sets the next", async () => {
      const u = await user();
      const p = post(u.id, { mode: "live", status: "published", platforms: ["bluesky", "x"] });
      await store.insertPost(p, [
        target(p.id, "bluesky", { status: "published", metrics_due_at: T0 + 300_000 }),
        target(p.id, "x", { status: "pending", metrics_due_at: T0 }),
      ]);
      expect(await store.nextMetricsReadAt()).toBe(T0 + 300_000);
      expect(await store.claimDueMetricReads(T0, T0 + 600_000, 10)).toEqual([]);
      const [claimed, ...rest] = await store.claimDueMetricReads(T0 + 300_000, T0 + 900_000, 10);
      expect(rest).toEqual([]);
      expect(claimed).toMatchObject({
        post: { id: p.id },
        target: { platform: "bluesky", metrics_due_at: T0 + 900_000 },
      });
      expect(await store.claimDueMetricReads(T0 + 300_000, T0 + 900_000, 10)).toEqual([]);
      await store.scheduleMetricsRead(p.id, "bluesky", T0 + 3_600_000, 1);
      expect((await store.getTargets(p.id))[0]).toMatchObject({
        metrics_due_at: T0 + 3_600_000,
        metrics_reads: 1,
      });
      await store.scheduleMetricsRead(p.id, "bluesky", null, 5);
      expect(await store.nextMetricsReadAt()).toBeNull();
    });
  });
}
