import type { AccountHealth } from "../../contract/resources.ts";
import type { Credentials } from "../../networks/adapter.ts";

/** A grant that cannot be refreshed turns `expiring` this long before it ends: 7 days. */
export const EXPIRING_AHEAD_MS = 7 * 24 * 60 * 60_000;
/** An access token is refreshed when it has less than this left: 5 minutes, more than an attempt takes. */
export const REFRESH_AHEAD_MS = 5 * 60_000;

/** When the access token ends (Unix ms), or null when it does not say. */
export function expiresAt(credentials: Credentials): number | null {
  const at = credentials.expires_at;
  return typeof at === "number" && Number.isFinite(at) ? at : null;
}

export function refreshable(credentials: Credentials): boolean {
  return typeof credentials.refresh_token === "string" && credentials.refresh_token.length > 0;
}

/** Whether the access token should be refreshed before it is used at `now`. */
export function needsRefresh(credentials: Credentials, now: number): boolean {
  const at = expiresAt(credentials);
  return at !== null && refreshable(credentials) && at - now < REFRESH_AHEAD_MS;
}

/**
 * What the grant says of the account's health: `expiring` when it ends within 7 days and cannot be
 * refreshed by us (Meta's 60-day tokens), `reauth_required` once such a grant has ended; null when the
 * grant has nothing to say (it does not end, or it is refreshed).
 */
export function grantHealth(credentials: Credentials, now: number): AccountHealth | null {
  const at = expiresAt(credentials);
  if (at === null || refreshable(credentials)) return null;
  if (at <= now) return "reauth_required";
  return at - now <= EXPIRING_AHEAD_MS ? "expiring" : null;
}

/**
 * When a grant we cannot refresh ends (kept on the account as grant_ends_at, for the sweep of ending
 * grants); null for a grant that is refreshed or does not end.
 */
export function grantEndsAt(credentials: Credentials): number | null {
  return refreshable(credentials) ? null : expiresAt(credentials);
}

/**
 * When the account's ending grant next changes its health: 7 days before its end while `healthy`, at
 * its end while `expiring`; null when nothing will change (no end kept, or already `reauth_required`).
 */
export function grantChangeAt(account: {
  mode: string;
  health: AccountHealth;
  grant_ends_at?: number;
}): number | null {
  if (account.mode !== "live" || account.grant_ends_at === undefined) return null;
  if (account.health === "reauth_required") return null;
  return account.health === "healthy" ? account.grant_ends_at - EXPIRING_AHEAD_MS : account.grant_ends_at;
}
