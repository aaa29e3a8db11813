import { newId } from "../../ids.ts";
import { DeliveryClaim } from "../delivery-claim.ts";
import type {
  AttemptLogEntry,
  AttemptRecord,
  ClaimOptions,
  DeliveryJob,
  DeliveryRecord,
  DeliveryState,
  Effects,
  ListAttemptsOptions,
  NewEvent,
} from "../types.ts";
import { copy, type MemoryTables } from "./tables.ts";

export async function appendEvents(db: MemoryTables, events: NewEvent[], effects?: Effects): Promise<void> {
  db.writeEffects({ events });
  db.writeEffects(effects);
}

export async function claimDueDeliveries(
  db: MemoryTables,
  now: number,
  leaseUntil: number,
  limit: number,
  options: ClaimOptions = {},
): Promise<DeliveryJob[]> {
  const due = [...db.deliveries.values()]
    .filter((d) => d.state === "pending" && d.next_attempt_at !== null && d.next_attempt_at <= now)
    .sort((a, b) => a.next_attempt_at! - b.next_attempt_at! || (a.id < b.id ? -1 : 1));
  const claim = new DeliveryClaim(limit, options);
  const jobs: DeliveryJob[] = [];
  for (const delivery of due) {
    if (claim.full) break;
    const event = db.eventsById.get(delivery.event_id);
    const webhook = db.webhooks.get(delivery.webhook_id);
    if (!event || !webhook || webhook.status !== "enabled") {
      endIfPending(delivery);
      continue;
    }
    if (!claim.take(webhook.id)) continue;
    delivery.next_attempt_at = leaseUntil;
    jobs.push({ delivery: copy(delivery), event: copy(event), webhook: copy(webhook) });
  }
  return jobs;
}

export async function recordAttempt(
  db: MemoryTables,
  attempt: Omit<AttemptRecord, "next_attempt_at">,
  next: { state: DeliveryState; next_attempt_at: number | null },
): Promise<void> {
  db.attempts.push({ ...copy(attempt), next_attempt_at: next.next_attempt_at });
  const delivery = db.deliveries.get(attempt.delivery_id);
  if (!delivery) return;
  delivery.attempts = Math.max(delivery.attempts, attempt.attempt);
  delivery.state = next.state;
  delivery.next_attempt_at = next.next_attempt_at;
}

export async function nextDeliveryAt(
  db: MemoryTables,
  options: { excludeWebhookIds?: readonly string[] } = {},
): Promise<number | null> {
  const excluded = new Set(options.excludeWebhookIds ?? []);
  let next: number | null = null;
  for (const d of db.deliveries.values()) {
    if (
      d.state === "pending" &&
      d.next_attempt_at !== null &&
      !excluded.has(d.webhook_id) &&
      (next === null || d.next_attempt_at < next)
    ) {
      next = d.next_attempt_at;
    }
  }
  return next;
}

export async function listAttempts(
  db: MemoryTables,
  webhookId: string,
  options: ListAttemptsOptions,
): Promise<AttemptLogEntry[]> {
  const before = options.beforeId;
  return db.attempts
    .filter((a) => a.webhook_id === webhookId && (before === undefined || a.id < before))
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, Math.max(0, options.limit))
    .flatMap((a) => {
      const event = db.eventsById.get(a.event_id);
      return event ? [{ ...copy(a), event_type: event.type }] : [];
    });
}

export async function resendEvent(
  db: MemoryTables,
  webhookId: string,
  eventId: string,
  now: number,
  effectsFor?: (delivery: DeliveryRecord) => Effects,
): Promise<DeliveryRecord | null> {
  const webhook = db.webhooks.get(webhookId);
  const event = db.eventsById.get(eventId);
  if (!webhook || !event || event.user_id !== webhook.user_id) return null;
  const delivery: DeliveryRecord = {
    id: newId("dlv", now),
    event_id: event.id,
    webhook_id: webhook.id,
    state: "pending",
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
  };
  db.deliveries.set(delivery.id, delivery);
  db.writeEffects(effectsFor?.(copy(delivery)));
  return copy(delivery);
}

export async function listEvents(db: MemoryTables, userId: string): Promise<NewEvent[]> {
  return db.events.filter((e) => e.user_id === userId).map(copy);
}

export async function pruneDeliveryHistory(db: MemoryTables, before: number, limit: number): Promise<number> {
  const owed = new Set<string>();
  for (const d of db.deliveries.values()) if (d.state === "pending") owed.add(d.event_id);
  const doomed = new Set(
    db.events
      .filter((e) => e.created * 1000 < before && !owed.has(e.id))
      .sort((a, b) => a.created - b.created)
      .slice(0, Math.max(0, limit))
      .map((e) => e.id),
  );
  if (doomed.size === 0) return 0;
  for (let i = db.events.length - 1; i >= 0; i--) {
    if (doomed.has(db.events[i]!.id)) db.events.splice(i, 1);
  }
  for (const id of doomed) db.eventsById.delete(id);
  for (const [id, d] of db.deliveries) if (doomed.has(d.event_id)) db.deliveries.delete(id);
  db.attempts = db.attempts.filter((a) => !doomed.has(a.event_id));
  return doomed.size;
}

/** A delivery that can no longer be made stops being owed: failed, never handed out again. */
export function endIfPending(delivery: DeliveryRecord): void {
  if (delivery.state !== "pending") return;
  delivery.state = "failed";
  delivery.next_attempt_at = null;
}
