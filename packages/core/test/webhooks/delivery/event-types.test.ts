import { describe, expect, it } from "vitest";
import { EVENT_DATA, EVENT_TYPES, type EventType, WebhookEvent } from "../../../src/contract/events.ts";
import { verifyWebhook } from "../../../src/webhooks/verify.ts";
import { receiver, setup } from "./setup.ts";

type Context = Awaited<ReturnType<typeof setup>>;

const HOUR = 3_600_000;

/** For each event type: the operation that emits it, and the data the delivery must carry. */
const CASES: Record<EventType, (ctx: Context) => Promise<Record<string, unknown>[]>> = {
  "post.published": async ({ publish, call }) => {
    const post = await publish("Out now", ["x", "bluesky"]);
    const targets = (await call("GET", `/posts/${post.id}/targets`)).body.data;
    return targets.map((t: { platform: string; permalink: string }) => ({
      post_id: post.id,
      platform: t.platform,
      status: "published",
      permalink: t.permalink,
      metrics: { reach: 0, likes: 0 },
    }));
  },
  "post.failed": async ({ call }) => {
    await call("POST", "/sandbox/accounts/linkedin", { health: "reauth_required" });
    const post = (await call("POST", "/posts", { caption: "Blocked", platforms: ["linkedin"] })).body;
    const [target] = (await call("GET", `/posts/${post.id}/targets`)).body.data;
    expect(target.error).toMatch(/reconnect/);
    return [{ post_id: post.id, platform: "linkedin", status: "failed", error: target.error }];
  },
  "post.scheduled": async ({ call, clock }) => {
    const at = clock.now() + HOUR;
    const post = (
      await call("POST", "/posts", { caption: "Later", platforms: ["x", "bluesky"], schedule_at: at })
    ).body;
    return [{ post_id: post.id, platforms: ["x", "bluesky"], scheduled_at: at }];
  },
  "post.deleted": async ({ call, clock }) => {
    const at = clock.now() + HOUR;
    const post = (await call("POST", "/posts", { caption: "Never", platforms: ["x"], schedule_at: at })).body;
    expect((await call("DELETE", `/posts/${post.id}`)).status).toBe(200);
    return [{ post_id: post.id, previous_status: "scheduled" }];
  },
  "account.connected": async ({ call }) => {
    const account = (await call("POST", "/accounts/connect", { platform: "threads", handle: "acme" })).body;
    return [{ platform: "threads", handle: "acme", health: account.health }];
  },
  "account.disconnected": async ({ call }) => {
    type Account = { platform: string; handle: string };
    const account = async (platform: string): Promise<Account> =>
      (await call("GET", "/accounts")).body.data.find((a: Account) => a.platform === platform);
    const bluesky = await account("bluesky");
    expect((await call("DELETE", "/accounts/bluesky")).status).toBe(200);
    await call("POST", "/sandbox/accounts/x", { health: "reauth_required" });
    const x = await account("x");
    return [
      { platform: "bluesky", handle: bluesky.handle, health: "healthy" },
      { platform: "x", handle: x.handle, health: "reauth_required" },
    ];
  },
  "media.processed": async ({ call }) => {
    const media = (await call("POST", "/media", { url: "https://cdn.example.com/launch.png" })).body;
    return [{ media_id: media.id, url: "https://cdn.example.com/launch.png", type: "image/png", size: 0 }];
  },
  "analytics.daily": async ({ call, clock, publish }) => {
    const post = await publish("Counted", ["x"]);
    await call("POST", "/sandbox/metrics", { post_id: post.id, platform: "x", reach: 40, likes: 4 });
    const summary = (await call("GET", "/analytics")).body;
    // The fake clock starts at noon UTC: the day ends twelve hours later.
    await clock.advance(12 * HOUR);
    return [{ ...summary, date: new Date(clock.now() - 1).toISOString().slice(0, 10) }];
  },
};

describe("webhook delivery: every event type, from the operation that emits it", () => {
  for (const type of EVENT_TYPES) {
    it(`${type}: delivered signed, its body a valid ${type} event with the operation's data`, async () => {
      const ctx = await setup();
      const hook = await receiver();
      const { secret } = await ctx.subscribe(hook.url, [type]);
      const expected = await CASES[type](ctx);
      await ctx.clock.advance(0);
      expect(hook.received).toHaveLength(expected.length);
      const delivered = hook.received.map((r) => {
        const event = verifyWebhook(r.body, r.headers, secret, { now: ctx.clock.now() });
        expect(r.headers["webhook-id"]).toBe(event.id);
        expect(WebhookEvent.parse(JSON.parse(r.body))).toEqual(JSON.parse(r.body));
        // No field beyond the type's schema.
        expect(EVENT_DATA[type].parse(event.data)).toEqual(event.data);
        expect(event.type).toBe(type);
        return event.data;
      });
      expect(delivered).toEqual(expect.arrayContaining(expected));
      expect(expected).toEqual(expect.arrayContaining(delivered));
    });
  }
});
