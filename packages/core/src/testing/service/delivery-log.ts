import { afterEach, describe, expect, it } from "vitest";
import { DeliveryAttempt } from "../../contract/events.ts";
import { verifyWebhook } from "../../webhooks/verify.ts";
import { WebhookReceiver } from "../webhook-receiver.ts";
import { type ApiUser, type Harness, keysOf } from "./harness.ts";

/**
 * The delivery log and resend, with real deliveries to a receiver on 127.0.0.1 (targets allow private
 * webhook URLs). The fake clock drives the worker: `advance(0)` makes the attempts due now.
 */
export function deliveryLogTests(h: Harness): void {
  describe("webhook delivery log and resend", () => {
    const receivers: WebhookReceiver[] = [];
    afterEach(async () => {
      await Promise.all(receivers.splice(0).map((r) => r.close()));
    });
    const receiver = async (statuses: number[] = []) => {
      const r = await WebhookReceiver.start((_, index) => ({ status: statuses[index] ?? 200 }));
      receivers.push(r);
      return r;
    };
    const subscribe = async (user: ApiUser, url: string) => {
      const res = await user.post("/webhooks", { url, events: ["post.published"] });
      expect(res.status).toBe(201);
      return res.body as { id: string };
    };

    it("GET /webhooks/{id}/attempts lists each attempt newest first: {id, delivery_id, event_id, event_type, attempt, at, response_status, duration_ms, error, next_attempt_at}", async () => {
      const user = await h.user();
      const hook = await receiver([500]);
      const endpoint = await subscribe(user, hook.url);
      await user.createPost({ caption: "Logged", platforms: ["x"] });
      const first = h.clock.now();
      await h.clock.advance(0);
      await h.clock.advance(5_500);
      expect(hook.received).toHaveLength(2);
      const res = await user.get(`/webhooks/${endpoint.id}/attempts`);
      expect(res.status).toBe(200);
      expect(keysOf(res.body)).toEqual(["data"]);
      const [second, firstAttempt] = res.body.data;
      expect(keysOf(second)).toEqual([
        "at",
        "attempt",
        "delivery_id",
        "duration_ms",
        "error",
        "event_id",
        "event_type",
        "id",
        "next_attempt_at",
        "response_status",
      ]);
      const eventId = hook.received[0]!.headers["webhook-id"];
      expect(firstAttempt).toMatchObject({
        event_id: eventId,
        event_type: "post.published",
        attempt: 1,
        at: first,
        response_status: 500,
        error: "the endpoint answered 500",
      });
      // The retry 5 s later, within ±10% jitter.
      expect(firstAttempt.next_attempt_at).toBeGreaterThanOrEqual(first + 4_500);
      expect(firstAttempt.next_attempt_at).toBeLessThanOrEqual(first + 5_500);
      expect(second).toMatchObject({
        delivery_id: firstAttempt.delivery_id,
        event_id: eventId,
        attempt: 2,
        at: firstAttempt.next_attempt_at,
        response_status: 200,
        error: null,
        next_attempt_at: null,
      });
      expect(second.id).toMatch(/^att_/);
      expect(firstAttempt.delivery_id).toMatch(/^dlv_/);
      for (const attempt of res.body.data) expect(() => DeliveryAttempt.parse(attempt)).not.toThrow();
    });

    it("the log pages like GET /posts: limit, then the Link header's cursor; a bad limit or cursor is 400", async () => {
      const user = await h.user();
      const hook = await receiver();
      const endpoint = await subscribe(user, hook.url);
      for (const caption of ["a", "b", "c"]) await user.createPost({ caption, platforms: ["x"] });
      await h.clock.advance(0);
      expect(hook.received).toHaveLength(3);
      const all = (await user.get(`/webhooks/${endpoint.id}/attempts`)).body.data;
      expect(all).toHaveLength(3);
      const page1 = await user.get(`/webhooks/${endpoint.id}/attempts?limit=2`);
      expect(page1.body.data).toEqual(all.slice(0, 2));
      const next = /^<([^>]+)>; rel="next"$/.exec(page1.headers.get("link") ?? "")?.[1];
      expect(next).toMatch(/^\/api\/v1\/webhooks\/wh_\w+\/attempts\?limit=2&cursor=/);
      const page2 = await user.get(`http://localhost${next}`);
      expect(page2.body.data).toEqual(all.slice(2));
      expect(page2.headers.get("link")).toBeNull();
      expect((await user.get(`/webhooks/${endpoint.id}/attempts?limit=0`)).status).toBe(400);
      const badCursor = await user.get(`/webhooks/${endpoint.id}/attempts?cursor=nonsense!`);
      expect(badCursor.status).toBe(400);
      expect(badCursor.body.error).toMatch(/^cursor is not valid/);
    });

    it("an endpoint with no attempts yet answers {data: []}; another user's or an unknown endpoint 404 Webhook not found.", async () => {
      const alice = await h.user();
      const bob = await h.user();
      const endpoint = await subscribe(alice, "https://93.184.215.14/hooks");
      expect((await alice.get(`/webhooks/${endpoint.id}/attempts`)).body).toEqual({ data: [] });
      for (const res of [
        await bob.get(`/webhooks/${endpoint.id}/attempts`),
        await alice.get("/webhooks/wh_missing/attempts"),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: "Webhook not found." });
      }
    });

    it("POST /webhooks/{id}/events/{event_id}/resend answers 202 and delivers the same event again (same webhook-id) as a new delivery", async () => {
      const user = await h.user();
      const hook = await receiver();
      const endpoint = await subscribe(user, hook.url);
      await user.createPost({ caption: "Again", platforms: ["x"] });
      await h.clock.advance(0);
      const eventId = String(hook.received[0]!.headers["webhook-id"]);
      const [delivered] = (await user.get(`/webhooks/${endpoint.id}/attempts`)).body.data;
      const res = await user.post(`/webhooks/${endpoint.id}/events/${eventId}/resend`);
      expect(res.status).toBe(202);
      expect(keysOf(res.body)).toEqual(["delivery_id", "event_id", "resent"]);
      expect(res.body).toMatchObject({ resent: true, event_id: eventId });
      expect(res.body.delivery_id).not.toBe(delivered.delivery_id);
      await h.clock.advance(0);
      expect(hook.received).toHaveLength(2);
      expect(hook.received[1]!.headers["webhook-id"]).toBe(eventId);
      expect(hook.received[1]!.body).toBe(hook.received[0]!.body);
      const [latest] = (await user.get(`/webhooks/${endpoint.id}/attempts`)).body.data;
      expect(latest).toMatchObject({
        delivery_id: res.body.delivery_id,
        event_id: eventId,
        attempt: 1,
        response_status: 200,
      });
    });

    it("resend answers 404 Event not found. for an unknown event or another user's, and 404 Webhook not found. for another user's endpoint", async () => {
      const alice = await h.user();
      const bob = await h.user();
      const hook = await receiver();
      const aliceHook = await subscribe(alice, hook.url);
      const bobHook = await subscribe(bob, hook.url);
      await bob.createPost({ caption: "Bob's", platforms: ["x"] });
      await h.clock.advance(0);
      const bobEvent = String(hook.received[0]!.headers["webhook-id"]);
      for (const res of [
        await alice.post(`/webhooks/${aliceHook.id}/events/${bobEvent}/resend`),
        await alice.post(`/webhooks/${aliceHook.id}/events/evt_missing/resend`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: "Event not found." });
      }
      const foreign = await alice.post(`/webhooks/${bobHook.id}/events/${bobEvent}/resend`);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: "Webhook not found." });
      expect(hook.received).toHaveLength(1);
    });

    it("an endpoint that answers 410 Gone is disabled; a resend to it answers 409", async () => {
      const user = await h.user();
      const hook = await receiver([410]);
      const endpoint = await subscribe(user, hook.url);
      await user.createPost({ caption: "Gone", platforms: ["x"] });
      await h.clock.advance(0);
      expect((await user.get(`/webhooks/${endpoint.id}`)).body.status).toBe("disabled");
      const [attempt] = (await user.get(`/webhooks/${endpoint.id}/attempts`)).body.data;
      expect(attempt).toMatchObject({ response_status: 410, next_attempt_at: null });
      const res = await user.post(`/webhooks/${endpoint.id}/events/${attempt.event_id}/resend`);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/disabled/);
      await user.createPost({ caption: "Nobody listens", platforms: ["x"] });
      await h.clock.advance(60_000);
      expect(hook.received).toHaveLength(1);
    });

    it("a disabled endpoint: POST /test answers 409 saying how to enable it; PATCH {status: enabled} does, and the secret stays", async () => {
      const user = await h.user();
      const hook = await receiver([410]);
      const created = await user.post("/webhooks", { url: hook.url, events: ["post.published"] });
      const endpoint = created.body as { id: string; secret: string };
      await user.createPost({ caption: "Gone", platforms: ["x"] });
      await h.clock.advance(0);
      expect((await user.get(`/webhooks/${endpoint.id}`)).body.status).toBe("disabled");

      const refused = await user.post(`/webhooks/${endpoint.id}/test`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toContain("disabled");
      expect(refused.body.error).toContain(`PATCH /webhooks/${endpoint.id} {"status": "enabled"}`);
      await h.clock.advance(60_000);
      expect(hook.received).toHaveLength(1);

      const enabled = await user.patch(`/webhooks/${endpoint.id}`, { status: "enabled" });
      expect(enabled.status).toBe(200);
      expect(enabled.body).toEqual({
        id: endpoint.id,
        url: hook.url,
        events: ["post.published"],
        status: "enabled",
        created_at: expect.any(Number),
      });
      const test = await user.post(`/webhooks/${endpoint.id}/test`);
      expect(test.status).toBe(202);
      await h.clock.advance(0);
      await hook.waitFor(2);
      // Signed with the secret given at creation: updating the endpoint did not change it.
      const delivered = hook.received[1]!;
      const event = verifyWebhook(delivered.body, delivered.headers, endpoint.secret, { now: h.clock.now() });
      expect(event.id).toBe(test.body.id);
    });
  });
}
