import type { NetworkId } from "../api/types.ts";

/**
 * The networks a live key connects through the network's own page (OAuth): POST /accounts/connect
 * answers an authorize URL to open, and the server finishes the connect when the network sends the
 * browser back. Whether this server can connect one (its app's settings, an adapter) only the server
 * knows: its 400 says what is missing, and the page shows it.
 */
export const OAUTH_NETWORKS: ReadonlySet<NetworkId> = new Set<NetworkId>([
  "x",
  "linkedin",
  "facebook",
  "instagram",
  "threads",
  "youtube",
  "tiktok",
  "pinterest",
  "reddit",
]);

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
