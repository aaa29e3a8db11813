import { z } from "zod";
import { NetworkId } from "./networks.ts";
import { AccountHealth, Analytics, PostStatus } from "./resources.ts";

export const EVENT_TYPES = [
  "post.published",
  "post.scheduled",
  "post.failed",
  "post.deleted",
  "account.connected",
  "account.disconnected",
  "media.processed",
  "analytics.daily",
] as const;
export const EventType = z.enum(EVENT_TYPES).meta({ id: "EventType" });
export type EventType = z.infer<typeof EventType>;

const count = z.number().int().min(0);

export const PostPublishedData = z
  .object({
    post_id: z.string(),
    platform: NetworkId,
    status: z.literal("published"),
    permalink: z.string(),
    metrics: z.object({ reach: count, likes: count }),
  })
  .meta({ id: "PostPublishedData" });
export const PostFailedData = z
  .object({
    post_id: z.string(),
    platform: NetworkId,
    status: z.literal("failed"),
    error: z.string(),
  })
  .meta({ id: "PostFailedData" });
export const PostScheduledData = z
  .object({
    post_id: z.string(),
    platforms: z.array(NetworkId),
    scheduled_at: z.number().int().describe("Unix time in milliseconds"),
  })
  .meta({ id: "PostScheduledData" });
export const PostDeletedData = z
  .object({ post_id: z.string(), previous_status: PostStatus })
  .meta({ id: "PostDeletedData" });
export const AccountEventData = z
  .object({ platform: NetworkId, handle: z.string(), health: AccountHealth })
  .meta({ id: "AccountEventData" });
export const MediaProcessedData = z
  .object({
    media_id: z.string(),
    url: z.string(),
    type: z.string(),
    size: count,
  })
  .meta({ id: "MediaProcessedData" });
export const AnalyticsDailyData = Analytics.extend({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .describe("the UTC day the figures cover"),
}).meta({ id: "AnalyticsDailyData" });

/** Data schema of each event type. */
export const EVENT_DATA = {
  "post.published": PostPublishedData,
  "post.scheduled": PostScheduledData,
  "post.failed": PostFailedData,
  "post.deleted": PostDeletedData,
  "account.connected": AccountEventData,
  "account.disconnected": AccountEventData,
  "media.processed": MediaProcessedData,
  "analytics.daily": AnalyticsDailyData,
} as const satisfies Record<EventType, z.ZodType>;

export type EventDataMap = { [K in EventType]: z.infer<(typeof EVENT_DATA)[K]> };

const envelope = <K extends EventType>(type: K, id: string) =>
  z
    .object({
      id: z.string().describe("event id, evt_…; the webhook-id header carries the same value"),
      type: z.literal(type),
      created: z.number().int().describe("Unix time in seconds"),
      data: EVENT_DATA[type],
    })
    .meta({ id });

/** The envelope of each event type, as a delivery's body carries it. */
export const EVENT_ENVELOPES = {
  "post.published": envelope("post.published", "PostPublishedEvent"),
  "post.scheduled": envelope("post.scheduled", "PostScheduledEvent"),
  "post.failed": envelope("post.failed", "PostFailedEvent"),
  "post.deleted": envelope("post.deleted", "PostDeletedEvent"),
  "account.connected": envelope("account.connected", "AccountConnectedEvent"),
  "account.disconnected": envelope("account.disconnected", "AccountDisconnectedEvent"),
  "media.processed": envelope("media.processed", "MediaProcessedEvent"),
  "analytics.daily": envelope("analytics.daily", "AnalyticsDailyEvent"),
} as const satisfies Record<EventType, z.ZodType>;

/** A webhook event: the envelope, discriminated on `type`. */
export const WebhookEvent = z
  .discriminatedUnion("type", [
    EVENT_ENVELOPES["post.published"],
    EVENT_ENVELOPES["post.scheduled"],
    EVENT_ENVELOPES["post.failed"],
    EVENT_ENVELOPES["post.deleted"],
    EVENT_ENVELOPES["account.connected"],
    EVENT_ENVELOPES["account.disconnected"],
    EVENT_ENVELOPES["media.processed"],
    EVENT_ENVELOPES["analytics.daily"],
  ])
  .meta({ id: "WebhookEvent" });
export type WebhookEvent = z.infer<typeof WebhookEvent>;
export type WebhookEventOf<K extends EventType> = Extract<WebhookEvent, { type: K }>;

export const WEBHOOK_STATUSES = ["enabled", "disabled"] as const;

/** A webhook endpoint as listed (never with its secret). */
export const WebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(EventType),
    status: z.enum(WEBHOOK_STATUSES),
    created_at: z.number().int().describe("Unix time in milliseconds"),
  })
  .meta({ id: "WebhookEndpoint" });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** The endpoint as answered by POST /webhooks: the only time the secret is shown. */
export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  secret: z.string().describe("whsec_ + base64 of 32 random bytes; shown only once"),
}).meta({ id: "CreatedWebhookEndpoint" });
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

export const WebhookEndpointList = z
  .object({ data: z.array(WebhookEndpoint) })
  .meta({ id: "WebhookEndpointList" });

/** One attempt to deliver an event to an endpoint, as the delivery log lists it. */
export const DeliveryAttempt = z
  .object({
    id: z.string().describe("att_…"),
    delivery_id: z.string().describe("dlv_…: the event owed to this endpoint; a resend is a new delivery"),
    event_id: z.string().describe("evt_…; the webhook-id header of the attempt"),
    event_type: EventType,
    attempt: z.number().int().min(1).describe("1 for the delivery's first attempt, then 2, …"),
    at: z.number().int().describe("when the attempt was made, Unix time in milliseconds"),
    response_status: z
      .number()
      .int()
      .nullable()
      .describe("the endpoint's HTTP status; null when no response came (refused, timed out)"),
    duration_ms: z.number().min(0).describe("how long the attempt took"),
    error: z.string().nullable().describe("what went wrong; null when delivered"),
    next_attempt_at: z
      .number()
      .int()
      .nullable()
      .describe("when the delivery was due again after this attempt (ms); null once delivered or given up"),
  })
  .meta({ id: "DeliveryAttempt" });
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const DeliveryAttemptList = z
  .object({ data: z.array(DeliveryAttempt) })
  .meta({ id: "DeliveryAttemptList" });

export const ResendResult = z
  .object({ resent: z.literal(true), event_id: z.string(), delivery_id: z.string() })
  .meta({ id: "ResendResult" });
export type ResendResult = z.infer<typeof ResendResult>;
