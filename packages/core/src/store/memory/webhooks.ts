import type { Effects, WebhookPatch, WebhookRecord, WebhookStatus } from "../types.ts";
import { endIfPending } from "./outbox.ts";
import { copy, type MemoryTables } from "./tables.ts";

export async function createWebhook(
  db: MemoryTables,
  webhook: WebhookRecord,
  effects?: Effects,
): Promise<void> {
  if (db.webhooks.has(webhook.id)) throw new Error(`Webhook ${webhook.id} already exists.`);
  db.webhooks.set(webhook.id, copy(webhook));
  db.writeEffects(effects);
}

export async function listWebhooks(db: MemoryTables, userId: string): Promise<WebhookRecord[]> {
  return [...db.webhooks.values()]
    .filter((w) => w.user_id === userId)
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map(copy);
}

export async function getWebhook(
  db: MemoryTables,
  userId: string,
  id: string,
): Promise<WebhookRecord | null> {
  const webhook = db.webhooks.get(id);
  return webhook && webhook.user_id === userId ? copy(webhook) : null;
}

export async function deleteWebhook(
  db: MemoryTables,
  userId: string,
  id: string,
  effects?: Effects,
): Promise<boolean> {
  const webhook = db.webhooks.get(id);
  if (!webhook || webhook.user_id !== userId) return false;
  db.webhooks.delete(id);
  // Nothing is owed to an endpoint that no longer exists.
  for (const [deliveryId, d] of db.deliveries) if (d.webhook_id === id) db.deliveries.delete(deliveryId);
  db.attempts = db.attempts.filter((a) => a.webhook_id !== id);
  db.writeEffects(effects);
  return true;
}

export async function setWebhookStatus(db: MemoryTables, id: string, status: WebhookStatus): Promise<void> {
  const webhook = db.webhooks.get(id);
  if (!webhook) return;
  webhook.status = status;
  if (status === "disabled") endOwedTo(db, id);
}

export async function updateWebhook(
  db: MemoryTables,
  userId: string,
  id: string,
  patch: WebhookPatch,
): Promise<WebhookRecord | null> {
  const webhook = db.webhooks.get(id);
  if (!webhook || webhook.user_id !== userId) return null;
  if (patch.url !== undefined) webhook.url = patch.url;
  if (patch.events !== undefined) webhook.events = [...patch.events];
  if (patch.status !== undefined) {
    webhook.status = patch.status;
    if (patch.status === "disabled") endOwedTo(db, id);
  }
  return copy(webhook);
}

export async function listWebhookSecrets(
  db: MemoryTables,
): Promise<Pick<WebhookRecord, "id" | "user_id" | "secret">[]> {
  return [...db.webhooks.values()].map(({ id, user_id, secret }) => ({ id, user_id, secret }));
}

export async function setWebhookSecret(
  db: MemoryTables,
  id: string,
  secret: string,
  expected: string,
): Promise<boolean> {
  const webhook = db.webhooks.get(id);
  if (!webhook || webhook.secret !== expected) return false;
  webhook.secret = secret;
  return true;
}

/** Nothing more is sent to a disabled endpoint: what it was still owed ends here. */
export function endOwedTo(db: MemoryTables, webhookId: string): void {
  for (const d of db.deliveries.values()) if (d.webhook_id === webhookId) endIfPending(d);
}
