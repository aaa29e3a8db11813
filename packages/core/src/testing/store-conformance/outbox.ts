import { beforeEach, describe, expect, it } from "vitest";
import { newId } from "../../ids.ts";
import type { Store } from "../../store/types.ts";
import { type StoreFixture, T0 } from "./fixture.ts";

/** The outbox: events, deliveries, attempts, and the retention of that history. */
export function describeOutbox(fixture: StoreFixture): void {
  const { user, post, event, webhook } = fixture;
  let store: Store;

  describe("outbox and deliveries", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    it("listEvents answers the user's events, oldest first", async () => {
      const a = await user();
      const b = await user();
      const p = post(a.id);
      const e1 = event(a.id, "post.scheduled");
      const e2 = event(a.id, "post.published");
      await store.insertPost(p, [], { events: [e1] });
      await store.appendEvents([e2, event(b.id)]);
      expect(await store.listEvents(a.id)).toEqual([e1, e2]);
    });

    it("an event creates one delivery per enabled endpoint of the user subscribed to its type, due at created", async () => {
      const a = await user();
      const b = await user();
      const subscribed = webhook(a.id, { events: ["post.published", "post.failed"] });
      const otherType = webhook(a.id, { events: ["post.failed"] });
      const disabled = webhook(a.id, { status: "disabled" });
      const otherUser = webhook(b.id);
      for (const w of [subscribed, otherType, disabled, otherUser]) await store.createWebhook(w);
      const e = event(a.id, "post.published");
      await store.appendEvents([e]);
      expect(await store.nextDeliveryAt()).toBe(e.created * 1000);
      expect(await store.claimDueDeliveries(e.created * 1000 - 1, T0 + 10_000, 10)).toEqual([]);
      const jobs = await store.claimDueDeliveries(e.created * 1000, e.created * 1000 + 15_000, 10);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.webhook).toEqual(subscribed);
      expect(jobs[0]!.event).toEqual(e);
      expect(jobs[0]!.delivery).toMatchObject({
        event_id: e.id,
        webhook_id: subscribed.id,
        state: "pending",
        attempts: 0,
      });
    });

    it("events written with a post change (effects) create deliveries like appended ones", async () => {
      const u = await user();
      await store.createWebhook(webhook(u.id));
      const p = post(u.id, { status: "publishing" });
      await store.insertPost(p, []);
      await store.transitionPost(p.id, ["publishing"], { status: "published", published_at: T0 }, [], {
        events: [event(u.id)],
      });
      expect(await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10)).toHaveLength(1);
    });

    it("an event addressed to one endpoint (webhook_id) is delivered there only", async () => {
      const u = await user();
      const one = webhook(u.id, { events: ["post.failed"] });
      const two = webhook(u.id);
      await store.createWebhook(one);
      await store.createWebhook(two);
      await store.appendEvents([event(u.id, "post.published", { webhook_id: one.id })]);
      const jobs = await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10);
      expect(jobs.map((j) => j.webhook.id)).toEqual([one.id]);
    });

    it("a claimed delivery is leased: not handed out again until the lease ends", async () => {
      const u = await user();
      await store.createWebhook(webhook(u.id));
      await store.appendEvents([event(u.id)]);
      const [first] = await store.claimDueDeliveries(T0, T0 + 15_000, 10);
      expect(first).toBeDefined();
      expect(await store.claimDueDeliveries(T0 + 14_999, T0 + 30_000, 10)).toEqual([]);
      expect(await store.nextDeliveryAt()).toBe(T0 + 15_000);
      const again = await store.claimDueDeliveries(T0 + 15_000, T0 + 30_000, 10);
      expect(again.map((j) => j.delivery.id)).toEqual([first!.delivery.id]);
    });

    it("recordAttempt sets the delivery's state: delivered is never handed out again, a retry comes back when due", async () => {
      const u = await user();
      await store.createWebhook(webhook(u.id));
      await store.appendEvents([event(u.id), event(u.id)]);
      const [a, b] = await store.claimDueDeliveries(T0, T0 + 15_000, 10);
      const attempt = (job: typeof a, status: number | null) => ({
        id: newId("att", T0),
        delivery_id: job!.delivery.id,
        webhook_id: job!.webhook.id,
        event_id: job!.event.id,
        attempt: 1,
        at: T0,
        response_status: status,
        duration_ms: 12,
        error: status === null ? "connection refused" : null,
      });
      await store.recordAttempt(attempt(a, 200), { state: "delivered", next_attempt_at: null });
      await store.recordAttempt(attempt(b, null), { state: "pending", next_attempt_at: T0 + 5000 });
      expect(await store.nextDeliveryAt()).toBe(T0 + 5000);
      const retried = await store.claimDueDeliveries(T0 + 60_000, T0 + 75_000, 10);
      expect(retried.map((j) => j.delivery.id)).toEqual([b!.delivery.id]);
      expect(retried[0]!.delivery.attempts).toBe(1);
    });

    it("deleting an endpoint drops what was owed to it; webhooks are scoped to their user", async () => {
      const a = await user();
      const b = await user();
      const w = webhook(a.id);
      await store.createWebhook(w);
      expect(await store.getWebhook(b.id, w.id)).toBeNull();
      expect(await store.deleteWebhook(b.id, w.id)).toBe(false);
      expect(await store.listWebhooks(a.id)).toEqual([w]);
      await store.appendEvents([event(a.id)]);
      expect(await store.deleteWebhook(a.id, w.id)).toBe(true);
      expect(await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10)).toEqual([]);
      expect(await store.listWebhooks(a.id)).toEqual([]);
    });

    it("setWebhookStatus disables an endpoint: new events skip it", async () => {
      const u = await user();
      const w = webhook(u.id);
      await store.createWebhook(w);
      await store.setWebhookStatus(w.id, "disabled");
      expect((await store.getWebhook(u.id, w.id))!.status).toBe("disabled");
      await store.appendEvents([event(u.id)]);
      expect(await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10)).toEqual([]);
    });

    it("disabling an endpoint ends what it was still owed: nothing of it is due any more", async () => {
      const u = await user();
      const w = webhook(u.id);
      const other = webhook(u.id);
      await store.createWebhook(w);
      await store.createWebhook(other);
      await store.appendEvents([event(u.id)]);
      await store.setWebhookStatus(w.id, "disabled");
      const jobs = await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10);
      expect(jobs.map((j) => j.webhook.id)).toEqual([other.id]);
      await store.appendEvents([event(u.id, "post.published", { webhook_id: w.id })]);
      expect(await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10)).toEqual([]);
      expect(await store.nextDeliveryAt()).toBe(T0 + 20_000);
    });

    it("updateWebhook changes the owner's endpoint (never its secret); disabling ends what was owed, enabling owes only later events", async () => {
      const a = await user();
      const b = await user();
      const w = webhook(a.id);
      await store.createWebhook(w);
      expect(await store.updateWebhook(b.id, w.id, { status: "disabled" })).toBeNull();
      expect(await store.updateWebhook(a.id, "wh_missing", { status: "disabled" })).toBeNull();
      await store.appendEvents([event(a.id)]);
      expect(await store.updateWebhook(a.id, w.id, { status: "disabled" })).toEqual({
        ...w,
        status: "disabled",
      });
      expect(await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10)).toEqual([]);

      const patch = {
        status: "enabled" as const,
        url: "https://example.com/new",
        events: ["post.failed" as const, "post.published" as const],
      };
      const enabled = await store.updateWebhook(a.id, w.id, patch);
      expect(enabled).toEqual({ ...w, ...patch });
      expect(await store.getWebhook(a.id, w.id)).toEqual(enabled);
      expect(await store.updateWebhook(a.id, w.id, { url: undefined })).toEqual(enabled);
      // What was dropped while disabled stays dropped; a later event is owed to it.
      expect(await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10)).toEqual([]);
      await store.appendEvents([event(a.id, "post.failed")]);
      const jobs = await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10);
      expect(jobs.map((j) => j.webhook)).toEqual([enabled]);
    });

    it("listWebhookSecrets lists every user's endpoints; setWebhookSecret replaces a secret only where it is still the one expected", async () => {
      const a = await user();
      const b = await user();
      const wa = webhook(a.id);
      const wb = webhook(b.id, { secret: "v1.abcd1234.iv.ct.tag" });
      await store.createWebhook(wa);
      await store.createWebhook(wb);
      const listed = await store.listWebhookSecrets();
      expect(listed).toEqual(
        expect.arrayContaining([
          { id: wa.id, user_id: a.id, secret: wa.secret },
          { id: wb.id, user_id: b.id, secret: wb.secret },
        ]),
      );
      expect(await store.setWebhookSecret(wa.id, "v1.abcd1234.iv2.ct2.tag2", "whsec_other")).toBe(false);
      expect((await store.getWebhook(a.id, wa.id))!.secret).toBe(wa.secret);
      expect(await store.setWebhookSecret(wa.id, "v1.abcd1234.iv2.ct2.tag2", wa.secret)).toBe(true);
      expect(await store.getWebhook(a.id, wa.id)).toEqual({ ...wa, secret: "v1.abcd1234.iv2.ct2.tag2" });
      // What a delivery hands out is the value as kept now.
      await store.appendEvents([event(a.id)]);
      const [job] = await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10);
      expect(job!.webhook.secret).toBe("v1.abcd1234.iv2.ct2.tag2");
      expect(await store.setWebhookSecret("wh_missing", "x", "y")).toBe(false);
      expect((await store.getWebhook(b.id, wb.id))!.secret).toBe(wb.secret);
    });

    it("a claim leaves room per endpoint: at most perWebhook, counting those busy; other endpoints still get theirs", async () => {
      const u = await user();
      const slow = webhook(u.id);
      const fast = webhook(u.id);
      await store.createWebhook(slow);
      await store.createWebhook(fast);
      await store.appendEvents([1, 2, 3].map(() => event(u.id, "post.published", { webhook_id: slow.id })));
      await store.appendEvents([event(u.id, "post.published", { webhook_id: fast.id })]);
      const first = await store.claimDueDeliveries(T0, T0 + 15_000, 10, {
        perWebhook: 2,
        busy: { [slow.id]: 1 },
      });
      expect(first.map((j) => j.webhook.id).sort()).toEqual([fast.id, slow.id].sort());
      const second = await store.claimDueDeliveries(T0, T0 + 15_000, 10, { perWebhook: 2 });
      expect(second.map((j) => j.webhook.id)).toEqual([slow.id, slow.id]);
    });

    it("nextDeliveryAt can leave out endpoints that have no room", async () => {
      const u = await user();
      const busy = webhook(u.id);
      const idle = webhook(u.id);
      await store.createWebhook(busy);
      await store.createWebhook(idle);
      await store.appendEvents([event(u.id, "post.published", { webhook_id: busy.id })]);
      await store.appendEvents([
        event(u.id, "post.published", { webhook_id: idle.id, created: Math.floor(T0 / 1000) + 60 }),
      ]);
      expect(await store.nextDeliveryAt()).toBe(T0);
      expect(await store.nextDeliveryAt({ excludeWebhookIds: [busy.id] })).toBe(T0 + 60_000);
      expect(await store.nextDeliveryAt({ excludeWebhookIds: [busy.id, idle.id] })).toBeNull();
    });

    it("listAttempts answers one endpoint's attempts newest first, with the event type and when the delivery was due next; beforeId pages", async () => {
      const u = await user();
      const w = webhook(u.id, { events: ["post.published", "post.failed"] });
      const other = webhook(u.id);
      await store.createWebhook(w);
      await store.createWebhook(other);
      const published = event(u.id, "post.published");
      const failed = event(u.id, "post.failed");
      await store.appendEvents([published, failed]);
      const jobs = await store.claimDueDeliveries(T0, T0 + 15_000, 10);
      const ids: string[] = [];
      for (const [i, job] of jobs.entries()) {
        const id = newId("att", T0 + i);
        ids.push(id);
        const ok = job.webhook.id === other.id || job.event.type === "post.failed";
        await store.recordAttempt(
          {
            id,
            delivery_id: job.delivery.id,
            webhook_id: job.webhook.id,
            event_id: job.event.id,
            attempt: 1,
            at: T0 + i,
            response_status: ok ? 200 : 500,
            duration_ms: 3,
            error: ok ? null : "the endpoint answered 500",
          },
          ok
            ? { state: "delivered", next_attempt_at: null }
            : { state: "pending", next_attempt_at: T0 + 5000 },
        );
      }
      const mine = await store.listAttempts(w.id, { limit: 10 });
      expect(mine.map((a) => [a.event_type, a.response_status, a.next_attempt_at])).toEqual([
        ["post.failed", 200, null],
        ["post.published", 500, T0 + 5000],
      ]);
      expect(mine[1]).toMatchObject({
        webhook_id: w.id,
        event_id: published.id,
        attempt: 1,
        error: "the endpoint answered 500",
        duration_ms: 3,
      });
      const [newest] = await store.listAttempts(w.id, { limit: 1 });
      expect(await store.listAttempts(w.id, { limit: 10, beforeId: newest!.id })).toEqual([mine[1]]);
      expect(await store.listAttempts(other.id, { limit: 10 })).toHaveLength(1);
      expect(ids).toHaveLength(3);
      await store.deleteWebhook(u.id, w.id);
      expect(await store.listAttempts(w.id, { limit: 10 })).toEqual([]);
    });

    it("resendEvent owes the same event to the endpoint again, due now; unknown or another user's event: null", async () => {
      const a = await user();
      const b = await user();
      const w = webhook(a.id);
      await store.createWebhook(w);
      const mine = event(a.id);
      const theirs = event(b.id);
      await store.appendEvents([mine, theirs]);
      const [job] = await store.claimDueDeliveries(T0, T0 + 15_000, 10);
      await store.recordAttempt(
        {
          id: newId("att", T0),
          delivery_id: job!.delivery.id,
          webhook_id: w.id,
          event_id: mine.id,
          attempt: 1,
          at: T0,
          response_status: 200,
          duration_ms: 1,
          error: null,
        },
        { state: "delivered", next_attempt_at: null },
      );
      const resent = await store.resendEvent(w.id, mine.id, T0 + 60_000);
      expect(resent).toMatchObject({
        event_id: mine.id,
        webhook_id: w.id,
        state: "pending",
        attempts: 0,
        next_attempt_at: T0 + 60_000,
      });
      expect(resent!.id).not.toBe(job!.delivery.id);
      expect(await store.nextDeliveryAt()).toBe(T0 + 60_000);
      const [again] = await store.claimDueDeliveries(T0 + 60_000, T0 + 75_000, 10);
      expect(again).toMatchObject({ delivery: { id: resent!.id }, event: mine, webhook: w });
      expect(await store.resendEvent(w.id, theirs.id, T0)).toBeNull();
      expect(await store.resendEvent(w.id, "evt_missing", T0)).toBeNull();
      expect(await store.resendEvent("wh_missing", mine.id, T0)).toBeNull();
    });
  });

  describe("retention", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    it("pruneDeliveryHistory removes old events nothing is owed for, with their deliveries and attempts; owed and recent ones stay", async () => {
      const u = await user();
      const w = webhook(u.id, { events: ["post.published"] });
      await store.createWebhook(w);
      const old = Math.floor(T0 / 1000) - 3600;
      const delivered = event(u.id, "post.published", { created: old });
      const failed = event(u.id, "post.published", { created: old });
      const owed = event(u.id, "post.published", { created: old });
      const unheard = event(u.id, "post.failed", { created: old });
      const recent = event(u.id, "post.published");
      await store.appendEvents([delivered, failed, owed, unheard, recent]);
      const jobs = await store.claimDueDeliveries(T0, T0 + 15_000, 10);
      const byEvent = new Map(jobs.map((j) => [j.event.id, j]));
      const record = async (eventId: string, state: "delivered" | "failed" | "pending") => {
        const job = byEvent.get(eventId)!;
        await store.recordAttempt(
          {
            id: newId("att", T0),
            delivery_id: job.delivery.id,
            webhook_id: w.id,
            event_id: eventId,
            attempt: 1,
            at: T0,
            response_status: state === "delivered" ? 200 : 500,
            duration_ms: 5,
            error: state === "delivered" ? null : "the endpoint answered 500",
          },
          { state, next_attempt_at: state === "pending" ? T0 + 5000 : null },
        );
      };
      await record(delivered.id, "delivered");
      await record(failed.id, "failed");
      await record(owed.id, "pending");
      await record(recent.id, "delivered");

      expect(await store.pruneDeliveryHistory(T0 - 60_000, 100)).toBe(3);
      expect((await store.listEvents(u.id)).map((e) => e.id)).toEqual([owed.id, recent.id]);
      const attempts = await store.listAttempts(w.id, { limit: 10 });
      expect(attempts.map((a) => a.event_id).sort()).toEqual([owed.id, recent.id].sort());
      // What is still owed is still delivered.
      const retry = await store.claimDueDeliveries(T0 + 5000, T0 + 20_000, 10);
      expect(retry.map((j) => j.event.id)).toEqual([owed.id]);
      expect(await store.pruneDeliveryHistory(T0 - 60_000, 100)).toBe(0);
    });

    it("pruneDeliveryHistory removes at most `limit` events a call, oldest first", async () => {
      const u = await user();
      const base = Math.floor(T0 / 1000) - 3600;
      const events = [3, 1, 2].map((n) => event(u.id, "post.failed", { created: base + n }));
      await store.appendEvents(events);
      expect(await store.pruneDeliveryHistory(T0, 2)).toBe(2);
      expect((await store.listEvents(u.id)).map((e) => e.created)).toEqual([base + 3]);
      expect(await store.pruneDeliveryHistory(T0, 2)).toBe(1);
      expect(await store.pruneDeliveryHistory(T0, 2)).toBe(0);
    });
  });
}
