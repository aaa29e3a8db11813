import type { EventType } from "../../contract/events.ts";
import type { Effects } from "./effects.ts";

export type WebhookStatus = "enabled" | "disabled";

export interface WebhookRecord {
  id: string;
  user_id: string;
  url: string;
  events: EventType[];
  /**
   * The signing secret as kept: sealed with the service's keyring (secrets/webhook-secrets.ts), or the
   * `whsec_…` value itself when the service has none (or the row predates sealing). The store never
   * opens it; the service reveals it once, at creation, and opens it to sign.
   */
  secret: string;
  status: WebhookStatus;
  created_at: number;
}

/** What PATCH /webhooks/{id} may change: never the id, the owner, the secret or created_at. */
export type WebhookPatch = Partial<Pick<WebhookRecord, "url" | "events" | "status">>;

/** Webhook endpoints and their sealed signing secrets. */
export interface WebhookStore {
  // Endpoints
  createWebhook(webhook: WebhookRecord, effects?: Effects): Promise<void>;
  listWebhooks(userId: string): Promise<WebhookRecord[]>;
  getWebhook(userId: string, id: string): Promise<WebhookRecord | null>;
  /** Removes the user's endpoint and what was owed to it; false (and no effects) when there is none. */
  deleteWebhook(userId: string, id: string, effects?: Effects): Promise<boolean>;
  /**
   * Enables or disables an endpoint. Disabling also ends what is still owed to it: its pending
   * deliveries become failed, so nothing more is sent there.
   */
  setWebhookStatus(id: string, status: WebhookStatus): Promise<void>;
  /**
   * Changes the user's endpoint (URL, events, status; the secret stays) and answers it as updated, or
   * null when the user has no such endpoint. Disabling ends what is still owed to it, as
   * setWebhookStatus does; enabling does not bring that back: the endpoint is owed the events written
   * from then on (and any resent).
   */
  updateWebhook(userId: string, id: string, patch: WebhookPatch): Promise<WebhookRecord | null>;
  /** Every endpoint of every user, with its secret as kept: what sealing and resealing go through. */
  listWebhookSecrets(): Promise<Pick<WebhookRecord, "id" | "user_id" | "secret">[]>;
  /**
   * Replaces an endpoint's secret as kept with `secret` (the same secret, sealed anew) if it is still
   * `expected`; false when the endpoint is gone or its value changed meanwhile.
   */
  setWebhookSecret(id: string, secret: string, expected: string): Promise<boolean>;
}
