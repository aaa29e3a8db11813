import type { AccountSession, OAuthSteps } from "@socialpub/core";

/** A token ending within this is refreshed before a read. */
const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * The token to read the channel's followers with. The service refreshes tokens before it publishes and
 * reads figures, not before it reads followers, and YouTube's tokens last an hour while follower reads
 * come a day apart; so that read refreshes an ending token itself and stores the result. Google does
 * not rotate the refresh token on a refresh, so a refresh made here alongside one of the service's
 * spends nothing the other needs.
 */
export async function readToken(
  account: AccountSession,
  oauth: OAuthSteps,
  now: number,
  signal: AbortSignal,
): Promise<string> {
  const expiresAt = account.credentials.expires_at;
  if (
    typeof expiresAt !== "number" ||
    expiresAt - now > REFRESH_MARGIN_MS ||
    !account.credentials.refresh_token
  ) {
    return String(account.credentials.access_token ?? "");
  }
  const next = await oauth.refresh(account.credentials, signal);
  await account.saveCredentials(next);
  return String(next.access_token ?? "");
}
