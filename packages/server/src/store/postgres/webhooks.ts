import type { Effects, WebhookPatch, WebhookRecord, WebhookStatus } from "@socialpub/core";
import { definedFields, toWebhook } from "../rows.ts";
import type { PostgresCore, Tx } from "./core.ts";

export async function createWebhook(
  core: PostgresCore,
  webhook: WebhookRecord,
  effects?: Effects,
): Promise<void> {
  await core.tx(async (tx) => {
    await tx`INSERT INTO webhooks (id, user_id, url, events, secret, status, created_at)
             VALUES (${webhook.id}, ${webhook.user_id}, ${webhook.url}, ${JSON.stringify(webhook.events)},
                     ${webhook.secret}, ${webhook.status}, ${webhook.created_at})`;
    await core.writeEffects(tx, effects);
  });
}

export async function listWebhooks(core: PostgresCore, userId: string): Promise<WebhookRecord[]> {
  return (await core.rows(() => core.sql`SELECT * FROM webhooks WHERE user_id = ${userId} ORDER BY id`)).map(
    toWebhook,
  );
}

export async function getWebhook(
  core: PostgresCore,
  userId: string,
  id: string,
): Promise<WebhookRecord | null> {
  const row = await core.one(() => core.sql`SELECT * FROM webhooks WHERE id = ${id} AND user_id = ${userId}`);
  return row ? toWebhook(row) : null;
}

export async function deleteWebhook(
  core: PostgresCore,
  userId: string,
  id: string,
  effects?: Effects,
): Promise<boolean> {
  return core.tx(async (tx) => {
    const removed = await tx`DELETE FROM webhooks WHERE id = ${id} AND user_id = ${userId} RETURNING id`;
    if (removed.length === 0) return false;
    // Deliveries still owed to a removed endpoint can never be made; their history goes with it.
    await tx`DELETE FROM delivery_attempts WHERE webhook_id = ${id}`;
    await tx`DELETE FROM deliveries WHERE webhook_id = ${id}`;
    await core.writeEffects(tx, effects);
    return true;
  });
}

export async function setWebhookStatus(core: PostgresCore, id: string, status: WebhookStatus): Promise<void> {
  await core.tx(async (tx) => {
    await tx`UPDATE webhooks SET status = ${status} WHERE id = ${id}`;
    // Nothing more is sent to a disabled endpoint: what it was still owed ends here.
    if (status === "disabled") await endOwedTo(tx, id);
    else await core.wake(tx, "owed");
  });
}

export async function endOwedTo(tx: Tx, webhookId: string): Promise<void> {
  await tx`UPDATE deliveries SET state = 'failed', next_attempt_at = NULL
           WHERE webhook_id = ${webhookId} AND state = 'pending'`;
}

export async function listWebhookSecrets(
  core: PostgresCore,
): Promise<Pick<WebhookRecord, "id" | "user_id" | "secret">[]> {
  const rows = await core.rows(() => core.sql`SELECT id, user_id, secret FROM webhooks ORDER BY id`);
  return rows.map((row) => ({
    id: row.id as string,
    user_id: row.user_id as string,
    secret: row.secret as string,
  }));
}

export async function setWebhookSecret(
  core: PostgresCore,
  id: string,
  secret: string,
  expected: string,
): Promise<boolean> {
  const rows = await core.rows(
    () =>
      core.sql`UPDATE webhooks SET secret = ${secret} WHERE id = ${id} AND secret = ${expected} RETURNING id`,
  );
  return rows.length > 0;
}

export async function updateWebhook(
  core: PostgresCore,
  userId: string,
  id: string,
  patch: WebhookPatch,
): Promise<WebhookRecord | null> {
  return core.tx(async (tx) => {
    const [row] = await tx`SELECT * FROM webhooks WHERE id = ${id} AND user_id = ${userId} FOR UPDATE`;
    if (!row) return null;
    const next: WebhookRecord = { ...toWebhook(row), ...definedFields(patch) };
    await tx`UPDATE webhooks SET url = ${next.url}, events = ${JSON.stringify(next.events)},
                                 status = ${next.status}
             WHERE id = ${id}`;
    if (next.status === "disabled") await endOwedTo(tx, id);
    else if (row.status !== "enabled") await core.wake(tx, "owed");
    return next;
  });
}
