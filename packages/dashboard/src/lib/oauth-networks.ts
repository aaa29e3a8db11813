import { DESCRIPTIONS } from "@socialpub/networks/descriptions";
import type { NetworkId } from "../api/types.ts";
import type { CredentialField } from "./live-networks.ts";

/**
 * The networks a live key connects through the network's own page (OAuth): POST /accounts/connect
 * answers an authorize URL to open, and the server finishes the connect when the network sends the
 * browser back. Whether this server can connect one (its app's settings, an adapter) only the server
 * knows: its 400 says what is missing, and the page shows it.
 */
export const OAUTH_NETWORKS: ReadonlySet<NetworkId> = new Set(
  DESCRIPTIONS.filter((d) => d.connect.kind === "oauth").map((d) => d.id),
);

/** What POST /accounts/connect answers for an OAuth network. */
export interface OAuthStart {
  platform: NetworkId;
  authorize_url: string;
  state: string;
  expires_at: string;
}

/** While a connect waits for the network's page, GET /accounts is read this often (the tab visible). */
export const CONNECT_POLL_MS = 3000;

/** An account as the connect compares it: a change (new handle, health) means the callback landed. */
export const accountFingerprint = (account: object | undefined): string =>
  account === undefined ? "none" : JSON.stringify(account);

/**
 * What a network asks for at connect besides the person's grant: where the account publishes (docs/api.md).
 * Optional, so the network's own default applies when left empty.
 */
export const OAUTH_FIELDS: ReadonlyMap<NetworkId, readonly CredentialField[]> = new Map(
  DESCRIPTIONS.filter((d) => d.connect.kind === "oauth" && d.connect.fields.length > 0).map((d) => [
    d.id,
    d.connect.fields,
  ]),
);

/** The connect body: the network, and the fields it asks for that were filled in. */
export function oauthConnectBody(platform: NetworkId, form: FormData): Record<string, unknown> {
  const body: Record<string, unknown> = { platform };
  for (const field of OAUTH_FIELDS.get(platform) ?? []) {
    const value = String(form.get(field.name) ?? "").trim();
    if (value !== "") body[field.name] = value;
  }
  return body;
}
