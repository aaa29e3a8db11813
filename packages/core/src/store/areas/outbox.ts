import type { EventDataMap, EventType } from "../../contract/events.ts";
import type { Effects } from "./effects.ts";
import type { WebhookRecord } from "./webhooks.ts";

/** What every event written to the outbox carries besides its type and data. */
export interface NewEventBase {
  id: string;
  user_id: string;
  /** Unix seconds, as in the envelope. */
  created: number;
  /**
   * Deliver to this endpoint only (test events). Otherwise the store creates one delivery for each
   * enabled endpoint of the user subscribed to the type, due at `created * 1000`.
   */
  webhook_id?: string;
}

/** An event of one type to write to the outbox, its `data` shaped as the contract says for that type. */
export interface NewEventOf<K extends EventType> extends NewEventBase {
  type: K;
  data: EventDataMap[K];
}

/** An event to write to the outbox: one member per type, so `type` tells what `data` holds. */
export type NewEvent = { [K in EventType]: NewEventOf<K> }[EventType];

export type DeliveryState = "pending" | "delivered" | "failed";

/** One event owed to one endpoint. */
export interface DeliveryRecord {
  id: string;
  event_id: string;
  webhook_id: string;
  state: DeliveryState;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due; null once delivered or given up. */
  next_attempt_at: number | null;
  created_at: number;
}

/** What a delivery worker needs to make one attempt. */
export interface DeliveryJob {
  delivery: DeliveryRecord;
  event: NewEvent;
  webhook: WebhookRecord;
}

export interface AttemptRecord {
  /** att_… — time-sortable, so the delivery log lists newest first by id. */
  id: string;
  delivery_id: string;
  webhook_id: string;
  event_id: string;
  /** 1 for the first attempt of the delivery, then 2, … */
  attempt: number;
  at: number;
  /** HTTP status, or null when no response came (timeout, refused). */
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  /** When the delivery was due again after this attempt; null once it was delivered or given up. */
  next_attempt_at: number | null;
}

/** An attempt as the delivery log shows it: with the type of the event it carried. */
export interface AttemptLogEntry extends AttemptRecord {
  event_type: EventType;
}

/** What a worker already has in flight, so a claim leaves room for other endpoints. */
export interface ClaimOptions {
  /** At most this many deliveries per endpoint in flight, counting `busy`. */
  perWebhook?: number;
  /** Deliveries the caller has in flight, per webhook id. */
  busy?: Readonly<Record<string, number>>;
}

export interface ListAttemptsOptions {
  limit: number;
  /** Return attempts strictly older (smaller id) than this id. */
  beforeId?: string;
}

/**
 * The outbox: events written with the change they announce (Effects), the deliveries each endpoint is
 * owed, the attempts made and the retention of that history.
 */
export interface OutboxStore {
  /**
   * Writes events on their own (analytics.daily, test events), with deliveries like any other, and
   * `effects` (their events too) in the same transaction.
   */
  appendEvents(events: NewEvent[], effects?: Effects): Promise<void>;
  /**
   * Claims deliveries due at or before `now` (state pending), oldest due first, pushing their
   * next_attempt_at to `leaseUntil` so a second worker does not take them; at most `limit`, and at most
   * `options.perWebhook` per endpoint counting those in `options.busy`. A due delivery whose endpoint
   * is disabled, or whose event or endpoint is gone, is ended (failed) instead of handed out.
   */
  claimDueDeliveries(
    now: number,
    leaseUntil: number,
    limit: number,
    options?: ClaimOptions,
  ): Promise<DeliveryJob[]>;
  /**
   * Records an attempt and the delivery's new state in one step; the stored attempt's next_attempt_at
   * is `next.next_attempt_at`.
   */
  recordAttempt(
    attempt: Omit<AttemptRecord, "next_attempt_at">,
    next: { state: DeliveryState; next_attempt_at: number | null },
  ): Promise<void>;
  /** The earliest next_attempt_at among pending deliveries, leaving out those of the given endpoints. */
  nextDeliveryAt(options?: { excludeWebhookIds?: readonly string[] }): Promise<number | null>;
  /** The attempts made to one endpoint, newest first (descending id), with their events' types. */
  listAttempts(webhookId: string, options: ListAttemptsOptions): Promise<AttemptLogEntry[]>;
  /**
   * Owes the event to the endpoint once more: a new pending delivery due at `now` (the same event, so
   * the same webhook-id). Null when the endpoint or the event does not exist, or they belong to
   * different users. `effectsFor` gets the new delivery and is written with it.
   */
  resendEvent(
    webhookId: string,
    eventId: string,
    now: number,
    effectsFor?: (delivery: DeliveryRecord) => Effects,
  ): Promise<DeliveryRecord | null>;
  /** The user's events, oldest first, as written to the outbox (test events included). */
  listEvents(userId: string): Promise<NewEvent[]>;
  /**
   * Retention: removes up to `limit` events created before `before` (Unix ms) that nothing is still
   * owed for — every delivery of them delivered or failed for good, or none at all — with their
   * deliveries and attempts, oldest first, and answers how many events it removed. An event with a
   * pending delivery (a retry, a resend) stays until that ends.
   */
  pruneDeliveryHistory(before: number, limit: number): Promise<number>;
}
