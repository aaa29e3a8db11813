import type { Store, WebhookRecord } from "../store/types.ts";
import { CredentialKeyError, type CredentialKeyring } from "./credential-keyring.ts";

/*
 * Webhook signing secrets at rest: sealed with the same keyring as live accounts' credentials, with the
 * endpoint (its owner and id) as associated data, so a sealed secret copied onto another endpoint's row
 * does not open. A service given no keyring (the in-process service of tests and scripts) keeps them as
 * made, `whsec_…`; a stored value in that form is read as it is whatever the service, so a database
 * written before secrets were sealed keeps working until the service seals them (sealPlainWebhookSecrets,
 * at start).
 */

const PLAIN_PREFIX = "whsec_";

/** The associated data that binds a sealed signing secret to one endpoint. */
export function webhookBinding(userId: string, webhookId: string): string {
  return `socialpub:webhook:${userId}:${webhookId}`;
}

/** Whether a stored secret is the `whsec_…` value itself (not sealed). */
export function isPlainWebhookSecret(stored: string): boolean {
  return stored.startsWith(PLAIN_PREFIX);
}

type Endpoint = Pick<WebhookRecord, "id" | "user_id">;

/** The secret as the store keeps it: sealed for `endpoint` with a keyring, as it is without one. */
export function sealWebhookSecret(
  keyring: CredentialKeyring | null,
  endpoint: Endpoint,
  secret: string,
): string {
  return keyring ? keyring.seal(secret, webhookBinding(endpoint.user_id, endpoint.id)) : secret;
}

/**
 * The `whsec_…` secret of a stored value, sealed or not. Throws CredentialKeyError, whose message never
 * holds the secret, when a sealed one cannot be opened with this keyring.
 */
export function openWebhookSecret(
  keyring: CredentialKeyring | null,
  endpoint: Endpoint,
  stored: string,
): string {
  if (isPlainWebhookSecret(stored)) return stored;
  if (!keyring) {
    throw new CredentialKeyError(
      "the endpoint's signing secret is sealed and this server was started without its secret key",
    );
  }
  const key = keyring.keyOf(stored);
  if (!key.held) {
    throw new CredentialKeyError(
      `the signing secret was sealed with key ${key.id}, which this server was not given; start it with that key (as the secret key or a previous one), or register the endpoint again`,
    );
  }
  try {
    return keyring.open(stored, webhookBinding(endpoint.user_id, endpoint.id));
  } catch (error) {
    if (!(error instanceof CredentialKeyError)) throw error;
    throw new CredentialKeyError("the signing secret does not open with this endpoint and key");
  }
}

export interface WebhookSealReport {
  /** Sealed under the current key (from the clear, or from a previous key with `rotate`). */
  sealed: number;
  /** Left as they were: already under the current key. */
  current: number;
  /** Could not be opened with any key given: the endpoint, and why (never the secret). */
  failed: { webhook_id: string; user_id: string; reason: string }[];
}

/** How often one endpoint is tried when its stored value keeps changing underneath. */
const ATTEMPTS = 5;

/**
 * Seals every signing secret kept in the clear under the keyring's current key; with `rotate`, also
 * seals again those sealed with a previous key (what `secrets reseal` does). Each write replaces only
 * the value it read (one conditional write per endpoint), so several instances of one database can run
 * it at once: one of them seals each secret, the others find it done. Secrets never leave this function.
 */
export async function sealWebhookSecrets(
  store: Store,
  keyring: CredentialKeyring,
  options: { rotate?: boolean } = {},
): Promise<WebhookSealReport> {
  const report: WebhookSealReport = { sealed: 0, current: 0, failed: [] };
  for (const first of await store.listWebhookSecrets()) {
    await sealOne(store, keyring, first, options.rotate === true, report);
  }
  return report;
}

async function sealOne(
  store: Store,
  keyring: CredentialKeyring,
  endpoint: Pick<WebhookRecord, "id" | "user_id" | "secret">,
  rotate: boolean,
  report: WebhookSealReport,
): Promise<void> {
  let stored: string | null = endpoint.secret;
  for (let attempt = 0; attempt < ATTEMPTS && stored !== null; attempt++) {
    if (!isPlainWebhookSecret(stored) && (!rotate || !keyring.isStale(stored))) {
      report.current++;
      return;
    }
    let secret: string;
    try {
      secret = openWebhookSecret(keyring, endpoint, stored);
    } catch (error) {
      if (!(error instanceof CredentialKeyError)) throw error;
      report.failed.push({ webhook_id: endpoint.id, user_id: endpoint.user_id, reason: error.message });
      return;
    }
    if (await store.setWebhookSecret(endpoint.id, sealWebhookSecret(keyring, endpoint, secret), stored)) {
      report.sealed++;
      return;
    }
    // Sealed by another instance, or deleted, since it was read: look at what is there now.
    stored = (await store.getWebhook(endpoint.user_id, endpoint.id))?.secret ?? null;
  }
  if (stored !== null) {
    report.failed.push({
      webhook_id: endpoint.id,
      user_id: endpoint.user_id,
      reason: "its secret kept changing while it was sealed; run it again",
    });
  }
}
