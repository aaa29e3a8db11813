import type { Effects, WebhookPatch, WebhookRecord, WebhookStatus } from "@socialpub/core";
import { definedFields, toWebhook } from "../rows.ts";
import type { SqliteCore } from "./core.ts";

export async function createWebhook(
  core: SqliteCore,
  webhook: WebhookRecord,
  effects?: Effects,
): Promise<void> {
  await core.write(() => {
    core.run(
      "INSERT INTO webhooks (id, user_id, url, events, secret, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      webhook.id,
      webhook.user_id,
      webhook.url,
      JSON.stringify(webhook.events),
      webhook.secret,
      webhook.status,
      webhook.created_at,
    );
    core.writeEffects(effects);
  });
}

export async function listWebhooks(core: SqliteCore, userId: string): Promise<WebhookRecord[]> {
  return core.all("SELECT * FROM webhooks WHERE user_id = ? ORDER BY id", userId).map(toWebhook);
}

export async function getWebhook(
  core: SqliteCore,
  userId: string,
  id: string,
): Promise<WebhookRecord | null> {
  const row = core.get("SELECT * FROM webhooks WHERE id = ? AND user_id = ?", id, userId);
  return row ? toWebhook(row) : null;
}

export async function deleteWebhook(
  core: SqliteCore,
  userId: string,
  id: string,
  effects?: Effects,
): Promise<boolean> {
  return core.write(() => {
    const removed = core.run("DELETE FROM webhooks WHERE id = ? AND user_id = ?", id, userId) > 0;
    // Deliveries still owed to a removed endpoint can never be made; their history goes with it.
    if (removed) {
      core.run("DELETE FROM delivery_attempts WHERE webhook_id = ?", id);
      core.run("DELETE FROM deliveries WHERE webhook_id = ?", id);
      core.writeEffects(effects);
    }
    return removed;
  });
}

export async function setWebhookStatus(core: SqliteCore, id: string, status: WebhookStatus): Promise<void> {
  await core.write(() => {
    core.run("UPDATE webhooks SET status = ? WHERE id = ?", status, id);
    // Nothing more is sent to a disabled endpoint: what it was still owed ends here.
    if (status === "disabled") endOwedTo(core, id);
  });
}

export function endOwedTo(core: SqliteCore, webhookId: string): void {
  core.run(
    "UPDATE deliveries SET state = 'failed', next_attempt_at = NULL WHERE webhook_id = ? AND state = 'pending'",
    webhookId,
  );
}

export async function listWebhookSecrets(
  core: SqliteCore,
): Promise<Pick<WebhookRecord, "id" | "user_id" | "secret">[]> {
  return core.all("SELECT id, user_id, secret FROM webhooks ORDER BY id") as Pick<
    WebhookRecord,
    "id" | "user_id" | "secret"
  >[];
}

export async function setWebhookSecret(
  core: SqliteCore,
  id: string,
  secret: string,
  expected: string,
): Promise<boolean> {
  return core.write(() => {
    // The value replaced may be a secret in the clear: its bytes are overwritten, not left in the
    // page's free space for a copy of the file to show.
    core.db.exec("PRAGMA secure_delete = ON");
    try {
      return core.run("UPDATE webhooks SET secret = ? WHERE id = ? AND secret = ?", secret, id, expected) > 0;
    } finally {
      core.db.exec("PRAGMA secure_delete = OFF");
    }
  });
}

export async function updateWebhook(
  core: SqliteCore,
  userId: string,
  id: string,
  patch: WebhookPatch,
): Promise<WebhookRecord | null> {
  return core.write(() => {
    const row = core.get("SELECT * FROM webhooks WHERE id = ? AND user_id = ?", id, userId);
    if (!row) return null;
    const next: WebhookRecord = { ...toWebhook(row), ...definedFields(patch) };
    core.run(
      "UPDATE webhooks SET url = ?, events = ?, status = ? WHERE id = ?",
      next.url,
      JSON.stringify(next.events),
      next.status,
      id,
    );
    // As setWebhookStatus: nothing more is sent to a disabled endpoint.
    if (next.status === "disabled") endOwedTo(core, id);
    return next;
  });
}
