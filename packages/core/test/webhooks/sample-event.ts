import { randomBytes } from "node:crypto";
import type { WebhookEvent } from "../../src/contract/events.ts";

/** A fresh secret in the service's format: whsec_ + base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function publishedEvent(created = Math.floor(Date.now() / 1000)): WebhookEvent {
  return {
    id: "evt_01JD3Z6Q1M8W5V0K9T2R4Y7B3C",
    type: "post.published",
    created,
    data: {
      post_id: "post_01JD3Z6Q1M8W5V0K9T2R4Y7B3D",
      platform: "x",
      status: "published",
      permalink: "https://sandbox.socialpub.dev/x/post_01JD3Z6Q1M8W5V0K9T2R4Y7B3D",
      metrics: { reach: 0, likes: 0 },
    },
  };
}
