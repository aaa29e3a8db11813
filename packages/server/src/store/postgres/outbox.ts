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
import type { PostgresCore, Row, Tx } from "./core.ts";
import { together } from "./pipeline.ts";

/**
 * Writes events to the outbox, with one pending delivery per endpoint that should receive each.
 * `endpointsOf` may hold a user's enabled endpoints read earlier in the transaction, sparing the
 * round trip that reads them.
 */
export async function writeEvents(
  core: PostgresCore,
  tx: Tx,
  events: readonly NewEvent[] | undefined,
  endpointsOf = new Map<string, WebhookRecord[]>(),
): Promise<void> {
  if (!events || events.length === 0) return;
  const deliveries: DeliveryRecord[] = [];
  for (const event of events) {
    let endpoints = endpointsOf.get(event.user_id);
    if (event.webhook_id === undefined && endpoints === undefined) {
      endpoints = await enabledEndpoints(tx, event.user_id);
      endpointsOf.set(event.user_id, endpoints);
    }
    const receivers =
      event.webhook_id !== undefined
        ? [event.webhook_id]
        : endpoints!.filter((webhook) => webhook.events.includes(event.type)).map((webhook) => webhook.id);
    const due = event.created * 1000;
    for (const webhookId of receivers) {
      deliveries.push({
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
  // One statement per table, however many events, sent together: the database runs them in order,
  // and the transaction waits for one round trip instead of three.
  await together([
    tx`INSERT INTO events ${tx(
      events.map((event) => ({
        id: event.id,
        user_id: event.user_id,
        type: event.type,
        created: event.created,
        data: JSON.stringify(event.data ?? null),
        webhook_id: event.webhook_id ?? null,
      })),
    )}`.execute(),
    ...(deliveries.length > 0 ? [insertDeliveries(tx, deliveries), core.wake(tx, "owed")] : []),
  ]);
}

/** The user's enabled webhook endpoints, in the order events are delivered to them. */
export async function enabledEndpoints(tx: Tx, userId: string): Promise<WebhookRecord[]> {
  return (
    await tx`SELECT * FROM webhooks WHERE user_id = ${userId} AND status = 'enabled'
             ORDER BY created_at, id`
  ).map(toWebhook);
}

export async function insertDeliveries(tx: Tx, deliveries: readonly DeliveryRecord[]): Promise<void> {
  await tx`INSERT INTO deliveries ${tx(
    deliveries.map((d) => ({
      id: d.id,
      event_id: d.event_id,
      webhook_id: d.webhook_id,
      state: d.state,
      attempts: d.attempts,
      next_attempt_at: d.next_attempt_at,
      created_at: d.created_at,
    })),
  )}`;
}

export async function appendEvents(core: PostgresCore, events: NewEvent[], effects?: Effects): Promise<void> {
  await core.tx(async (tx) => {
    await writeEvents(core, tx, events);
    await core.writeEffects(tx, effects);
  });
}

export async function claimDueDeliveries(
  core: PostgresCore,
  now: number,
  leaseUntil: number,
  limit: number,
  options: ClaimOptions = {},
): Promise<DeliveryJob[]> {
  if (limit <= 0) return [];
  return core.tx(async (tx) => {
    const claim = new DeliveryClaim(limit, options);
    const chosen: DeliveryRecord[] = [];
    const undeliverable: string[] = [];
    // Due deliveries in order, read a page at a time until the batch is full, each row locked as it is
    // read; rows another instance is claiming are skipped. Per endpoint, only as many as it has room for.
    const page = Math.max(limit * 2, 64);
    let after: { at: number; seq: number } | null = null;
    for (;;) {
      const rows: Row[] = await tx`
        SELECT d.*, w.status AS webhook_status,
               EXISTS (SELECT 1 FROM events e WHERE e.id = d.event_id) AS has_event
        FROM deliveries d LEFT JOIN webhooks w ON w.id = d.webhook_id
        WHERE d.state = 'pending' AND d.next_attempt_at <= ${now}
          ${after ? tx`AND (d.next_attempt_at, d.seq) > (${after.at}, ${after.seq})` : tx``}
        ORDER BY d.next_attempt_at, d.seq
        LIMIT ${page}
        FOR UPDATE OF d SKIP LOCKED`;
      for (const row of rows) {
        if (claim.full) break;
        if (row.webhook_status !== "enabled" || !row.has_event) {
          undeliverable.push(row.id as string);
          continue;
        }
        if (claim.take(row.webhook_id as string)) chosen.push(toDelivery(row));
      }
      const last = rows.at(-1);
      if (claim.full || rows.length < page || !last) break;
      after = { at: last.next_attempt_at as number, seq: last.seq as number };
    }
    if (undeliverable.length > 0) {
      await tx`UPDATE deliveries SET state = 'failed', next_attempt_at = NULL
               WHERE id = ANY(${tx.array(undeliverable)}::text[])`;
    }
    if (chosen.length === 0) return [];
    const ids = chosen.map((d) => d.id);
    await tx`UPDATE deliveries SET next_attempt_at = ${leaseUntil} WHERE id = ANY(${tx.array(ids)}::text[])`;
    const eventIds = [...new Set(chosen.map((d) => d.event_id))];
    const webhookIds = [...new Set(chosen.map((d) => d.webhook_id))];
    const events = new Map(
      (await tx`SELECT * FROM events WHERE id = ANY(${tx.array(eventIds)}::text[])`).map((row) => [
        row.id as string,
        toEvent(row),
      ]),
    );
    const webhooks = new Map(
      (await tx`SELECT * FROM webhooks WHERE id = ANY(${tx.array(webhookIds)}::text[])`).map((row) => [
        row.id as string,
        toWebhook(row),
      ]),
    );
    return chosen.map((delivery) => ({
      delivery: { ...delivery, next_attempt_at: leaseUntil },
      event: structuredClone(events.get(delivery.event_id)!),
      webhook: structuredClone(webhooks.get(delivery.webhook_id)!),
    }));
  });
}

export async function recordAttempt(
  core: PostgresCore,
  attempt: Omit<AttemptRecord, "next_attempt_at">,
  next: { state: DeliveryState; next_attempt_at: number | null },
): Promise<void> {
  await core.tx(async (tx) => {
    await tx`
      INSERT INTO delivery_attempts (id, delivery_id, attempt, webhook_id, event_id, at, response_status,
                                     duration_ms, error, next_attempt_at)
      VALUES (${attempt.id}, ${attempt.delivery_id}, ${attempt.attempt}, ${attempt.webhook_id},
              ${attempt.event_id}, ${attempt.at}, ${attempt.response_status}, ${attempt.duration_ms},
              ${attempt.error}, ${next.next_attempt_at})`;
    await tx`UPDATE deliveries SET state = ${next.state}, next_attempt_at = ${next.next_attempt_at},
                                   attempts = greatest(attempts, ${attempt.attempt})
             WHERE id = ${attempt.delivery_id}`;
  });
}

export async function nextDeliveryAt(
  core: PostgresCore,
  options: { excludeWebhookIds?: readonly string[] } = {},
): Promise<number | null> {
  const excluded = options.excludeWebhookIds ?? [];
  const row = await core.one(() =>
    excluded.length === 0
      ? core.sql`SELECT min(next_attempt_at) AS due FROM deliveries WHERE state = 'pending'`
      : core.sql`SELECT min(next_attempt_at) AS due FROM deliveries
                 WHERE state = 'pending' AND webhook_id <> ALL(${core.sql.array([...excluded])}::text[])`,
  );
  return (row?.due as number | null) ?? null;
}

export async function listAttempts(
  core: PostgresCore,
  webhookId: string,
  options: ListAttemptsOptions,
): Promise<AttemptLogEntry[]> {
  const sql = core.sql;
  return (
    await core.rows(
      () => sql`SELECT a.*, e.type AS event_type FROM delivery_attempts a JOIN events e ON e.id = a.event_id
                WHERE a.webhook_id = ${webhookId}
                  ${options.beforeId !== undefined ? sql`AND a.id < ${options.beforeId}` : sql``}
                ORDER BY a.id DESC LIMIT ${options.limit}`,
    )
  ).map(toAttemptLogEntry);
}

export async function resendEvent(
  core: PostgresCore,
  webhookId: string,
  eventId: string,
  now: number,
  effectsFor?: (delivery: DeliveryRecord) => Effects,
): Promise<DeliveryRecord | null> {
  return core.tx(async (tx) => {
    const found = await tx`SELECT 1 FROM webhooks w JOIN events e ON e.user_id = w.user_id
                           WHERE w.id = ${webhookId} AND e.id = ${eventId}`;
    if (found.length === 0) return null;
    const delivery: DeliveryRecord = {
      id: newDeliveryId(),
      event_id: eventId,
      webhook_id: webhookId,
      state: "pending",
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
    };
    await insertDeliveries(tx, [delivery]);
    await core.wake(tx, "owed");
    await core.writeEffects(tx, effectsFor?.(delivery));
    return delivery;
  });
}

export async function listEvents(core: PostgresCore, userId: string): Promise<NewEvent[]> {
  return (await core.rows(() => core.sql`SELECT * FROM events WHERE user_id = ${userId} ORDER BY seq`)).map(
    toEvent,
  );
}

export async function pruneDeliveryHistory(
  core: PostgresCore,
  before: number,
  limit: number,
): Promise<number> {
  return core.tx(async (tx) => {
    const ids = (
      await tx`SELECT id FROM events e
               WHERE created < ${Math.ceil(before / 1000)} AND NOT EXISTS (
                 SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.state = 'pending')
               ORDER BY created LIMIT ${limit}
               FOR UPDATE SKIP LOCKED`
    ).map((row) => row.id as string);
    if (ids.length === 0) return 0;
    const list = tx.array(ids);
    await tx`DELETE FROM delivery_attempts WHERE delivery_id IN (
               SELECT id FROM deliveries WHERE event_id = ANY(${list}::text[]))`;
    await tx`DELETE FROM deliveries WHERE event_id = ANY(${list}::text[])`;
    await tx`DELETE FROM events WHERE id = ANY(${list}::text[])`;
    return ids.length;
  });
}

/** Every attempt made for a delivery, oldest first. */
export async function listDeliveryAttempts(core: PostgresCore, deliveryId: string): Promise<AttemptRecord[]> {
  return (
    await core.rows(
      () => core.sql`SELECT * FROM delivery_attempts WHERE delivery_id = ${deliveryId} ORDER BY attempt, at`,
    )
  ).map(toAttempt);
}

/** The deliveries of one event, oldest first. */
export async function listDeliveries(core: PostgresCore, eventId: string): Promise<DeliveryRecord[]> {
  return (
    await core.rows(
      () => core.sql`SELECT * FROM deliveries WHERE event_id = ${eventId} ORDER BY created_at, id`,
    )
  ).map(toDelivery);
}
