import { describe, expect, it } from "vitest";
import { EVENT_TYPES, WebhookEvent } from "../src/contract/events.ts";
import { sampleEvent } from "../src/service/sandbox/sample-events.ts";
import type { NewEvent, NewEventBase } from "../src/store/types.ts";

const base: NewEventBase = { id: "evt_1", user_id: "usr_1", created: 1_800_000_000 };
const envelope = (e: NewEvent) => ({ id: e.id, type: e.type, created: e.created, data: e.data });

// The @ts-expect-error lines are checked by `pnpm typecheck`: each fails to compile when an event's
// data is not typed by its type, and the check then reports the directive as unused.
describe("NewEvent", () => {
  it("pairs each event type with the contract's data for it", () => {
    const deleted: NewEvent = {
      ...base,
      type: "post.deleted",
      data: { post_id: "post_1", previous_status: "scheduled" },
    };
    const published = {
      post_id: "post_1",
      platform: "x",
      status: "published",
      permalink: "https://x.com/p/1",
      metrics: { reach: 0, likes: 0 },
    } as const;
    const failedWithoutError = { post_id: "post_1", platform: "x", status: "failed", error: null } as const;
    const myspace = { platform: "myspace", handle: "me", health: "healthy" } as const;
    // @ts-expect-error post.deleted data needs previous_status
    const missing: NewEvent = { ...base, type: "post.deleted", data: { post_id: "post_1" } };
    // @ts-expect-error post.failed data has a string error, never null
    const nullError: NewEvent = { ...base, type: "post.failed", data: failedWithoutError };
    // @ts-expect-error post.published data under the post.scheduled type
    const mismatched: NewEvent = { ...base, type: "post.scheduled", data: published };
    // @ts-expect-error a platform that is not a network id
    const unknownPlatform: NewEvent = { ...base, type: "account.connected", data: myspace };
    expect(WebhookEvent.safeParse(envelope(deleted)).success).toBe(true);
    for (const wrong of [missing, nullError, mismatched, unknownPlatform]) {
      expect(WebhookEvent.safeParse(envelope(wrong)).success).toBe(false);
    }
  });

  it("test events carry data valid for their type", () => {
    for (const type of EVENT_TYPES) {
      const event = sampleEvent(type, Date.UTC(2026, 5, 15), { ...base, webhook_id: "wh_1" });
      expect(event).toMatchObject({ ...base, type, webhook_id: "wh_1" });
      expect(WebhookEvent.parse(envelope(event)).type).toBe(type);
    }
  });
});
