import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { EVENT_ENVELOPES, EVENT_TYPES, type EventType } from "../contract/events.ts";

/** When each event is sent, for the document's top-level `webhooks`. */
const WHEN: Record<EventType, { summary: string; description: string }> = {
  "post.published": {
    summary: "A post was published on a network",
    description: "One event per network the post was published to, with its permalink and first figures.",
  },
  "post.scheduled": {
    summary: "A post was scheduled",
    description:
      "Sent when a post (or a draft) is queued for a later time, by POST /posts, /schedule or publish.",
  },
  "post.failed": {
    summary: "A network could not publish a post",
    description:
      "One event per network that failed, with the reason (an account that is gone or needs reconnecting).",
  },
  "post.deleted": {
    summary: "A post was deleted or cancelled",
    description: "Sent by DELETE /posts/{id}, with the status the post had.",
  },
  "account.connected": {
    summary: "A network account was connected",
    description: "Sent when an account is connected or reconnected, or recovers from reauth_required.",
  },
  "account.disconnected": {
    summary: "A network account was disconnected or needs attention",
    description: "Sent when an account is disconnected, or turns reauth_required (it must be reconnected).",
  },
  "media.processed": {
    summary: "Uploaded or registered media is ready",
    description: "Sent after POST /media, with the media's id, URL, type and size.",
  },
  "analytics.daily": {
    summary: "The analytics summary of the UTC day that ended",
    description: "Sent after each UTC midnight: the summary as GET /analytics reports it, plus the date.",
  },
};

/** The Standard Webhooks headers every delivery carries. */
const DELIVERY_HEADERS = z.object({
  "webhook-id": z.string().meta({
    description: "The event id (the envelope's id): the same on every retry, so receivers can deduplicate.",
  }),
  "webhook-timestamp": z.string().meta({
    description:
      "Unix seconds when this attempt was signed; refuse it when more than 5 minutes away from now.",
  }),
  "webhook-signature": z.string().meta({
    description:
      "`v1,` + base64 of HMAC-SHA256 keyed with the bytes of the endpoint's whsec_ secret, over `<webhook-id>.<webhook-timestamp>.<raw body>`.",
  }),
});

/**
 * The document's top-level `webhooks`: one entry per event type, the request the service sends to a
 * subscribed endpoint (the envelope with that type's data) and what the endpoint's answer means.
 */
export function webhookDocs(): ZodOpenApiPathsObject {
  const out: ZodOpenApiPathsObject = {};
  for (const type of EVENT_TYPES) {
    out[type] = {
      post: {
        operationId: `${type.replace(/\.(\w)/, (_, c: string) => c.toUpperCase())}Event`,
        tags: ["Webhooks"],
        ...WHEN[type],
        security: [],
        requestParams: { header: DELIVERY_HEADERS },
        requestBody: {
          required: true,
          content: { "application/json": { schema: EVENT_ENVELOPES[type] } },
        },
        responses: {
          "2XX": { description: "Delivered: nothing more is sent for this event." },
          "410": { description: "Gone: the endpoint is disabled and is sent nothing more." },
          default: {
            description:
              "Not delivered (any other status, a redirect, no answer within 15 s): tried again 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failed attempt (±10%), eight attempts in all; Retry-After on 429 and 503 is honoured.",
          },
        },
      },
    };
  }
  return out;
}
