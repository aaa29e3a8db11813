import type { EventDataMap, EventType } from "../../contract/events.ts";

/** Data for a test event of each type: valid for its schema, and plainly a test. */
export function sampleEventData(type: EventType, now: number): EventDataMap[EventType] {
  const day = new Date(now - 86_400_000).toISOString().slice(0, 10);
  const samples: EventDataMap = {
    "post.published": {
      post_id: "post_test",
      platform: "x",
      status: "published",
      permalink: "https://x.com/socialpub/status/1000000000000000000",
      metrics: { reach: 0, likes: 0 },
    },
    "post.scheduled": { post_id: "post_test", platforms: ["x"], scheduled_at: now + 3_600_000 },
    "post.failed": { post_id: "post_test", platform: "x", status: "failed", error: "This is a test event." },
    "post.deleted": { post_id: "post_test", previous_status: "scheduled" },
    "account.connected": { platform: "x", handle: "socialpub", health: "healthy" },
    "account.disconnected": { platform: "x", handle: "socialpub", health: "reauth_required" },
    "media.processed": {
      media_id: "med_test",
      url: "https://example.com/test.png",
      type: "image/png",
      size: 0,
    },
    "analytics.daily": {
      totalReach: 0,
      engagementRate: 0,
      postsPublished: 0,
      followers: 0,
      perPlatform: [],
      date: day,
    },
  };
  return samples[type];
}
