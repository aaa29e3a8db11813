import { NETWORK_RULES, type NetworkId } from "../../contract/networks.ts";
import { openCredentials } from "../../publishing/account-credentials.ts";
import { CredentialKeyError } from "../../secrets/credential-keyring.ts";
import type { AccountRecord } from "../../store/types.ts";
import type { ServiceDeps } from "../context.ts";
import { grantEndsAt } from "./grant.ts";

/**
 * The networks whose grants we may be unable to refresh: Meta's 60-day tokens (Facebook, Instagram,
 * Threads) and LinkedIn's member tokens (refreshed only for apps LinkedIn approved for it).
 */
export const ENDING_GRANT_NETWORKS: readonly NetworkId[] = ["facebook", "instagram", "threads", "linkedin"];

const PAGE = 100;

/**
 * Accounts connected before grant_ends_at was kept have none, so the sweep of ending grants would never
 * turn them `expiring` or `reauth_required`. Their sealed credentials say when the grant ends (the
 * token's expires_at, and no refresh token), so at start, holding the secret key, the service opens
 * each live account of those networks that has no end kept, and writes its end, nothing else. A grant
 * that is refreshed or does not end is left without one, as a connect leaves it. The write replaces
 * only what was read: an account reconnected meanwhile has its own end, and one refreshed or resealed
 * meanwhile is looked at again at the next start. Once filled, an account is no longer listed, so a
 * start with nothing left to fill reads only the accounts whose grants do not end. Answers how many
 * were filled.
 */
export async function fillGrantEnds(deps: ServiceDeps): Promise<number> {
  if (!deps.publishing.keyring) return 0;
  let filled = 0;
  let after: AccountRecord | null = null;
  for (;;) {
    const page = await deps.store.listAccountsWithoutGrantEnd(ENDING_GRANT_NETWORKS, after, PAGE);
    for (const account of page) {
      const endsAt = endOf(deps, account);
      if (endsAt === null) continue;
      if (await deps.store.fillGrantEnd(account.user_id, account.platform, endsAt, account.credentials!)) {
        filled++;
      }
    }
    if (page.length < PAGE) return filled;
    after = page.at(-1)!;
  }
}

/** When the account's grant ends, or null when it does not end, is refreshed, or cannot be opened. */
function endOf(deps: ServiceDeps, account: AccountRecord): number | null {
  try {
    return grantEndsAt(openCredentials(deps, account));
  } catch (err) {
    // A key error says which key is missing; anything else may quote the credentials, so it is not logged.
    const reason =
      err instanceof CredentialKeyError ? err.message : "its stored credentials could not be read";
    deps.logger.warn(
      { user_id: account.user_id, platform: account.platform },
      `when the ${NETWORK_RULES[account.platform].name} grant of ${account.handle} ends is not known: ${reason}`,
    );
    return null;
  }
}
