import { describe, expect, it } from "vitest";
import { EVENT_TYPES, WebhookEvent } from "../../contract/events.ts";
import { type Harness, keysOf } from "./harness.ts";

/** A public address literal: no DNS needed, and not private, loopback or link-local. */
const PUBLIC_URL = "https://93.184.215.14/hooks/socialpub";

export function webhookTests(h: Harness): void {
  describe("webhook endpoints", () => {
    it("POST /webhooks answers 201 {id, url, events, secret, status, created_at}; events default to all eight", async () => {
      const user = await h.user();
      const res = await user.post("/webhooks", { url: PUBLIC_URL });
      expect(res.status).toBe(201);
      expect(keysOf(res.body)).toEqual(["created_at", "events", "id", "secret", "status", "url"]);
      expect(res.body).toMatchObject({
        url: PUBLIC_URL,
        events: [...EVENT_TYPES],
        status: "enabled",
        created_at: h.clock.now(),
      });
      expect(res.body.id).toMatch(/^wh_[0-9A-Z]{26}$/);
      expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(atob(res.body.secret.slice(6))).toHaveLength(32);
    });

    it("the secret is shown only at creation: lists and reads never carry it", async () => {
      const user = await h.user();
      const created = (
        await user.post("/webhooks", { url: PUBLIC_URL, events: ["post.failed", "post.published"] })
      ).body;
      const listed = await user.get("/webhooks");
      expect(listed.body).toEqual({
        data: [
          {
            id: created.id,
            url: PUBLIC_URL,
            events: ["post.published", "post.failed"],
            status: "enabled",
            created_at: created.created_at,
          },
        ],
      });
      const one = await user.get(`/webhooks/${created.id}`);
      expect(one.body).toEqual(listed.body.data[0]);
      expect(JSON.stringify([listed.body, one.body])).not.toContain(created.secret);
    });

    it("events the endpoint subscribes to produce deliveries for it; others do not", async () => {
      const user = await h.user();
      const hook = (await user.post("/webhooks", { url: PUBLIC_URL, events: ["post.scheduled"] })).body;
      await user.createPost({ caption: "Now", platforms: ["x"] });
      await user.createPost({ caption: "Later", platforms: ["x"], schedule_at: h.clock.now() + 3_600_000 });
      const jobs = await h.store.claimDueDeliveries(h.clock.now(), h.clock.now() + 15_000, 10);
      expect(jobs.map((j) => [j.webhook.id, j.event.type])).toEqual([[hook.id, "post.scheduled"]]);
    });

    it("a URL that is not http(s), or carries credentials, answers 400", async () => {
      const user = await h.user();
      for (const url of [
        "not a url",
        "ftp://93.184.215.14/x",
        "https://user:pass@93.184.215.14/x",
        "/relative",
      ]) {
        const res = await user.post("/webhooks", { url });
        expect(res.status, url).toBe(400);
        expect(res.body.error).toMatch(/^url /);
      }
    });

    it("an unknown event type answers 400 naming the field", async () => {
      const user = await h.user();
      const res = await user.post("/webhooks", { url: PUBLIC_URL, events: ["post.exploded"] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^events must be a non-empty array of event types/);
      expect((await user.post("/webhooks", { url: PUBLIC_URL, events: [] })).status).toBe(400);
    });

    it("DELETE /webhooks/{id} answers { deleted: true, id }; afterwards the endpoint is 404 Webhook not found.", async () => {
      const user = await h.user();
      const hook = (await user.post("/webhooks", { url: PUBLIC_URL })).body;
      expect((await user.delete(`/webhooks/${hook.id}`)).body).toEqual({ deleted: true, id: hook.id });
      for (const res of [await user.get(`/webhooks/${hook.id}`), await user.delete(`/webhooks/${hook.id}`)]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: "Webhook not found." });
      }
    });

    it("another user's endpoint answers 404 and is not listed", async () => {
      const alice = await h.user();
      const bob = await h.user();
      const hook = (await alice.post("/webhooks", { url: PUBLIC_URL })).body;
      expect((await bob.get(`/webhooks/${hook.id}`)).status).toBe(404);
      expect((await bob.delete(`/webhooks/${hook.id}`)).status).toBe(404);
      expect((await bob.post(`/webhooks/${hook.id}/test`, {})).status).toBe(404);
      expect((await bob.get("/webhooks")).body).toEqual({ data: [] });
    });

    it("POST /webhooks/{id}/test queues a test event of the first subscribed type, for that endpoint only", async () => {
      const user = await h.user();
      const hook = (
        await user.post("/webhooks", { url: PUBLIC_URL, events: ["post.failed", "post.deleted"] })
      ).body;
      const other = (await user.post("/webhooks", { url: PUBLIC_URL })).body;
      const res = await user.request("POST", `/webhooks/${hook.id}/test`);
      expect(res.status).toBe(202);
      const event = WebhookEvent.parse(res.body);
      expect(event).toMatchObject({ type: "post.failed", created: Math.floor(h.clock.now() / 1000) });
      expect(event.id).toMatch(/^evt_/);
      const jobs = await h.store.claimDueDeliveries(h.clock.now(), h.clock.now() + 15_000, 10);
      expect(jobs.map((j) => [j.webhook.id, j.event.id])).toEqual([[hook.id, event.id]]);
      expect(other.id).not.toBe(hook.id);
    });

    it("a test event can be of any type, with data valid for that type", async () => {
      const user = await h.user();
      const hook = (await user.post("/webhooks", { url: PUBLIC_URL })).body;
      for (const type of EVENT_TYPES) {
        const res = await user.post(`/webhooks/${hook.id}/test`, { type });
        expect(res.status, type).toBe(202);
        expect(WebhookEvent.parse(res.body).type).toBe(type);
      }
    });

    it("PATCH /webhooks/{id} changes url, events and status, answers the endpoint without its secret, and checks what it gets", async () => {
      const user = await h.user();
      const created = (await user.post("/webhooks", { url: PUBLIC_URL, events: ["post.failed"] })).body;
      const changed = await user.patch(`/webhooks/${created.id}`, {
        url: `${PUBLIC_URL}/v2`,
        events: ["post.failed", "post.published", "post.failed"],
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({
        id: created.id,
        url: `${PUBLIC_URL}/v2`,
        events: ["post.published", "post.failed"],
        status: "enabled",
        created_at: created.created_at,
      });
      expect((await user.get(`/webhooks/${created.id}`)).body).toEqual(changed.body);
      const disabled = await user.patch(`/webhooks/${created.id}`, { status: "disabled" });
      expect(disabled.body).toEqual({ ...changed.body, status: "disabled" });
      await user.createPost({ caption: "Unheard", platforms: ["x"] });
      expect(await h.store.claimDueDeliveries(h.clock.now(), h.clock.now() + 15_000, 10)).toEqual([]);

      for (const [body, message] of [
        [{}, /^Send at least one of url, events or status to change\.$/],
        [{ url: "ftp://example.com/hook" }, /url/],
        [{ url: "https://user:secret@93.184.215.14/hook" }, /url/],
        [{ events: [] }, /events/],
        [{ events: ["post.exploded"] }, /events/],
        [{ status: "paused" }, /status/],
      ] as const) {
        const res = await user.patch(`/webhooks/${created.id}`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toMatch(message);
      }
      expect((await user.get(`/webhooks/${created.id}`)).body).toEqual(disabled.body);

      const other = await h.user();
      const foreign = await other.patch(`/webhooks/${created.id}`, { status: "enabled" });
      expect(foreign).toMatchObject({ status: 404, body: { error: "Webhook not found." } });
      expect(JSON.stringify(disabled.body)).not.toContain(created.secret);
    });

    it("at most 20 endpoints per account", async () => {
      const user = await h.user();
      for (let i = 0; i < 20; i++)
        expect((await user.post("/webhooks", { url: `${PUBLIC_URL}/${i}` })).status).toBe(201);
      const res = await user.post("/webhooks", { url: PUBLIC_URL });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "At most 20 webhook endpoints per account; delete one first." });
    });
  });
}
