import type { EventType } from "../../contract/events.ts";
import type { NewEvent, NewEventBase, NewEventOf } from "../../store/types.ts";

/** A test event of the type asked for: data valid for the type's schema, and plainly a test. */
export function sampleEvent(type: EventType, now: number, base: NewEventBase): NewEvent {
  const day = new Date(now - 86_400_000).toISOString().slice(0, 10);
  // One entry per type, each typed by its own type, so every sample is checked against its schema.
  const samples: { [K in EventType]: NewEventOf<K> } = {
    "post.published": {
      ...base,
      type: "post.published",
      data: {
        post_id: "post_test",
        platform: "x",
        status: "published",
        permalink: "https://x.com/socialpub/status/1000000000000000000",
        metrics: { reach: 0, likes: 0 },
      },
    },
    "post.scheduled": {
      ...base,
      type: "post.scheduled",
      data: { post_id: "post_test", platforms: ["x"], scheduled_at: now + 3_600_000 },
    },
    "post.failed": {
      ...base,
      type: "post.failed",
      data: { post_id: "post_test", platform: "x", status: "failed", error: "This is a test event." },
    },
    "post.deleted": {
      ...base,
      type: "post.deleted",
      data: { post_id: "post_test", previous_status: "scheduled" },
    },
    "account.connected": {
      ...base,
      type: "account.connected",
      data: { platform: "x", handle: "socialpub", health: "healthy" },
    },
    "account.disconnected": {
      ...base,
      type: "account.disconnected",
      data: { platform: "x", handle: "socialpub", health: "reauth_required" },
    },
    "media.processed": {
      ...base,
      type: "media.processed",
      data: { media_id: "med_test", url: "https://example.com/test.png", type: "image/png", size: 0 },
    },
    "analytics.daily": {
      ...base,
      type: "analytics.daily",
      data: { totalReach: 0, engagementRate: 0, postsPublished: 0, followers: 0, perPlatform: [], date: day },
    },
  };
  return samples[type];
}
