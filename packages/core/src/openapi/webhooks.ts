import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { EVENT_ENVELOPES, EVENT_TYPES, type EventType } from "../contract/events.ts";
import { MAX_ATTEMPTS, RETRY_JITTER, RETRY_SCHEDULE_MS } from "../webhooks/delivery/schedule.ts";
import { DEFAULT_DELIVERY_TIMEOUT_MS } from "../webhooks/delivery/worker.ts";

/** A duration of the retry schedule as the document writes it: "5 s", "30 min", "10 h". */
function duration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

const COUNTS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

/** What happens to a delivery that fails, taken from the delivery worker's own schedule and timeout. */
const NOT_DELIVERED = (() => {
  const waits = RETRY_SCHEDULE_MS.slice(1).map(duration);
  const list = `${waits.slice(0, -1).join(", ")} and ${waits.at(-1)}`;
  return `Not delivered (any other status, a redirect, no answer within ${duration(DEFAULT_DELIVERY_TIMEOUT_MS)}): tried again ${list} after each failed attempt (±${RETRY_JITTER * 100}%), ${COUNTS[MAX_ATTEMPTS] ?? MAX_ATTEMPTS} attempts in all; Retry-After on 429 and 503 is honoured.`;
})();

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
            description: NOT_DELIVERED,
          },
        },
      },
    };
  }
  return out;
}
