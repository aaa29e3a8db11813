import type { SQLInputValue } from "node:sqlite";
import {
  type AttemptLogEntry,
  type AttemptRecord,
  type ClaimOptions,
  DeliveryClaim,
  type DeliveryJob,
  type DeliveryRecord,
  type DeliveryState,
  type Effects,
  type ListAttemptsOptions,
  type NewEvent,
  type WebhookRecord,
} from "@socialpub/core";
import { newDeliveryId, toAttempt, toAttemptLogEntry, toDelivery, toEvent, toWebhook } from "../rows.ts";
import type { Row, SqliteCore } from "./core.ts";

/** Writes events to the outbox, with one pending delivery per endpoint that should receive each. */
export function writeEvents(core: SqliteCore, events: readonly NewEvent[] | undefined): void {
  // A post's events (one per network) share their user: its endpoints are read once per call.
  const endpointsOf = new Map<string, WebhookRecord[]>();
  for (const event of events ?? []) {
    core.run(
      "INSERT INTO events (id, user_id, type, created, data, webhook_id) VALUES (?, ?, ?, ?, ?, ?)",
      event.id,
      event.user_id,
      event.type,
      event.created,
      JSON.stringify(event.data ?? null),
      event.webhook_id ?? null,
    );
    let endpoints = endpointsOf.get(event.user_id);
    if (event.webhook_id === undefined && endpoints === undefined) {
      endpoints = core
        .all(
          "SELECT * FROM webhooks WHERE user_id = ? AND status = 'enabled' ORDER BY created_at, id",
          event.user_id,
        )
        .map(toWebhook);
      endpointsOf.set(event.user_id, endpoints);
    }
    const receivers =
      event.webhook_id !== undefined
        ? [event.webhook_id]
        : endpoints!.filter((webhook) => webhook.events.includes(event.type)).map((webhook) => webhook.id);
    const due = event.created * 1000;
    for (const webhookId of receivers) {
      insertDelivery(core, {
        id: newDeliveryId(),
        event_id: event.id,
        webhook_id: webhookId,
        state: "pending",
        attempts: 0,
        next_attempt_at: due,
        created_at: due,
      });
    }
  }
}

export function insertDelivery(core: SqliteCore, d: DeliveryRecord): void {
  core.run(
    `INSERT INTO deliveries (id, event_id, webhook_id, state, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    d.id,
    d.event_id,
    d.webhook_id,
    d.state,
    d.attempts,
    d.next_attempt_at,
    d.created_at,
  );
}

export async function appendEvents(core: SqliteCore, events: NewEvent[], effects?: Effects): Promise<void> {
  await core.write(() => {
    writeEvents(core, events);
    core.writeEffects(effects);
  });
}

export async function claimDueDeliveries(
  core: SqliteCore,
  now: number,
  leaseUntil: number,
  limit: number,
  options: ClaimOptions = {},
): Promise<DeliveryJob[]> {
  return core.write(() => {
    const claim = new DeliveryClaim(limit, options);
    const chosen: Row[] = [];
    const undeliverable: string[] = [];
    // Due deliveries in order, through the deliveries_due index, read only until the batch is full: a
    // claim costs what it takes (and skips), not a pass over everything due — with thousands owed,
    // a pass per claim made delivery quadratic. Per endpoint, only as many as it has room for.
    for (const row of core
      .stmt(
        `SELECT d.*, w.status AS webhook_status,
              EXISTS (SELECT 1 FROM events e WHERE e.id = d.event_id) AS has_event
       FROM deliveries d LEFT JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.state = 'pending' AND d.next_attempt_at <= ?
       ORDER BY d.next_attempt_at, d.rowid`,
      )
      .iterate(now) as Iterable<Row>) {
      if (claim.full) break;
      // A delivery that can never be made ends here, so it neither fills the batch nor stays due.
      if (row.webhook_status !== "enabled" || !row.has_event) {
        undeliverable.push(row.id as string);
        continue;
      }
      if (claim.take(row.webhook_id as string)) chosen.push(row);
    }
    for (const id of undeliverable) {
      core.run("UPDATE deliveries SET state = 'failed', next_attempt_at = NULL WHERE id = ?", id);
    }
    const jobs: DeliveryJob[] = [];
    for (const row of chosen) {
      const delivery = { ...toDelivery(row), next_attempt_at: leaseUntil };
      const event = core.get("SELECT * FROM events WHERE id = ?", delivery.event_id)!;
      const webhook = core.get("SELECT * FROM webhooks WHERE id = ?", delivery.webhook_id)!;
      core.run("UPDATE deliveries SET next_attempt_at = ? WHERE id = ?", leaseUntil, delivery.id);
      jobs.push({ delivery, event: toEvent(event), webhook: toWebhook(webhook) });
    }
    return jobs;
  });
}

export async function recordAttempt(
  core: SqliteCore,
  attempt: Omit<AttemptRecord, "next_attempt_at">,
  next: { state: DeliveryState; next_attempt_at: number | null },
): Promise<void> {
  await core.write(() => {
    core.run(
      `INSERT INTO delivery_attempts (id, delivery_id, attempt, webhook_id, event_id, at, response_status,
                                      duration_ms, error, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      attempt.id,
      attempt.delivery_id,
      attempt.attempt,
      attempt.webhook_id,
      attempt.event_id,
      attempt.at,
      attempt.response_status,
      attempt.duration_ms,
      attempt.error,
      next.next_attempt_at,
    );
    core.run(
      "UPDATE deliveries SET state = ?, next_attempt_at = ?, attempts = max(attempts, ?) WHERE id = ?",
      next.state,
      next.next_attempt_at,
      attempt.attempt,
      attempt.delivery_id,
    );
  });
}

export async function nextDeliveryAt(
  core: SqliteCore,
  options: { excludeWebhookIds?: readonly string[] } = {},
): Promise<number | null> {
  const excluded = options.excludeWebhookIds ?? [];
  const row =
    excluded.length === 0
      ? core.get("SELECT min(next_attempt_at) AS due FROM deliveries WHERE state = 'pending'")
      : core.get(
          `SELECT min(next_attempt_at) AS due FROM deliveries
           WHERE state = 'pending' AND webhook_id NOT IN (SELECT value FROM json_each(?))`,
          JSON.stringify(excluded),
        );
  return (row?.due as number | null) ?? null;
}

export async function listAttempts(
  core: SqliteCore,
  webhookId: string,
  options: ListAttemptsOptions,
): Promise<AttemptLogEntry[]> {
  const before = options.beforeId === undefined ? "" : "AND a.id < ?";
  const params: SQLInputValue[] = [webhookId];
  if (options.beforeId !== undefined) params.push(options.beforeId);
  params.push(options.limit);
  return core
    .all(
      `SELECT a.*, e.type AS event_type FROM delivery_attempts a JOIN events e ON e.id = a.event_id
     WHERE a.webhook_id = ? ${before} ORDER BY a.id DESC LIMIT ?`,
      ...params,
    )
    .map(toAttemptLogEntry);
}

export async function resendEvent(
  core: SqliteCore,
  webhookId: string,
  eventId: string,
  now: number,
  effectsFor?: (delivery: DeliveryRecord) => Effects,
): Promise<DeliveryRecord | null> {
  return core.write(() => {
    const found = core.get(
      `SELECT 1 FROM webhooks w JOIN events e ON e.user_id = w.user_id WHERE w.id = ? AND e.id = ?`,
      webhookId,
      eventId,
    );
    if (!found) return null;
    const delivery: DeliveryRecord = {
      id: newDeliveryId(),
      event_id: eventId,
      webhook_id: webhookId,
      state: "pending",
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
    };
    insertDelivery(core, delivery);
    core.writeEffects(effectsFor?.(delivery));
    return delivery;
  });
}

export async function listEvents(core: SqliteCore, userId: string): Promise<NewEvent[]> {
  return core.all("SELECT * FROM events WHERE user_id = ? ORDER BY rowid", userId).map(toEvent);
}

export async function pruneDeliveryHistory(core: SqliteCore, before: number, limit: number): Promise<number> {
  return core.write(() => {
    // Through events_by_created: only events old enough are visited.
    const ids = core
      .all(
        `SELECT id FROM events e
       WHERE created < ? AND NOT EXISTS (
         SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
       ORDER BY created LIMIT ?`,
        Math.ceil(before / 1000),
        limit,
      )
      .map((row) => row.id as string);
    if (ids.length === 0) return 0;
    const list = JSON.stringify(ids);
    core.run(
      `DELETE FROM delivery_attempts WHERE delivery_id IN (
         SELECT id FROM deliveries WHERE event_id IN (SELECT value FROM json_each(?)))`,
      list,
    );
    core.run("DELETE FROM deliveries WHERE event_id IN (SELECT value FROM json_each(?))", list);
    core.run("DELETE FROM events WHERE id IN (SELECT value FROM json_each(?))", list);
    return ids.length;
  });
}

/** Every attempt made for a delivery, oldest first. */
export async function listDeliveryAttempts(core: SqliteCore, deliveryId: string): Promise<AttemptRecord[]> {
  return core
    .all("SELECT * FROM delivery_attempts WHERE delivery_id = ? ORDER BY attempt, at", deliveryId)
    .map(toAttempt);
}

/** The deliveries of one event, oldest first. */
export async function listDeliveries(core: SqliteCore, eventId: string): Promise<DeliveryRecord[]> {
  return core
    .all("SELECT * FROM deliveries WHERE event_id = ? ORDER BY created_at, id", eventId)
    .map(toDelivery);
}
