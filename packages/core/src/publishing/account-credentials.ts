import { NETWORK_RULES } from "../contract/networks.ts";
import { type Credentials, type NetworkAdapter, NetworkError } from "../networks/adapter.ts";
import { accountEvent } from "../service/account-event.ts";
import type { ServiceDeps } from "../service/context.ts";
import { grantHealth, needsRefresh, refreshable } from "../service/oauth/grant.ts";
import type { AccountRecord } from "../store/types.ts";
import { openCredentials, sealCredentials } from "./attempt-target.ts";

/** How long a token refresh may take. */
const REFRESH_TIMEOUT_MS = 15_000;

/**
 * An OAuth account's credentials, fit to publish with at `now`: the access token refreshed first when
 * it ends within 5 minutes. One refresh at a time per account: concurrent attempts in this process share
 * it, and on a store several instances share, it runs under the store's lock for the user, so two
 * instances never spend one refresh token. The rotated refresh token is stored with the new access
 * token in one write before either is used. A refresh the network refuses throws NetworkError
 * `reauth` (the attempt then turns the account reauth_required and sends account.disconnected), unless
 * another refresh stored new credentials meanwhile. A grant that cannot be refreshed turns the account
 * `expiring` 7 days before it ends, and `reauth_required` once it has.
 */
export async function freshCredentials(
  deps: ServiceDeps,
  account: AccountRecord,
  adapter: NetworkAdapter,
  credentials: Credentials,
  signal: AbortSignal,
): Promise<Credentials> {
  if (!adapter.oauth) return credentials;
  const now = deps.clock.now();
  await noteGrantHealth(deps, account, credentials, now);
  if (!needsRefresh(credentials, now)) return credentials;
  return refreshShared(deps, account, adapter, signal, null);
}

/**
 * Runs `work` (a publish, a read) with fresh credentials; when the network answers it "unauthorized"
 * although the token looked good (it ended early, or clocks differ), refreshes once and runs it again.
 * An unauthorized answer means nothing was done, so running the work again cannot do it twice.
 */
export async function withFreshCredentials<T>(
  deps: ServiceDeps,
  account: AccountRecord,
  adapter: NetworkAdapter,
  credentials: Credentials,
  signal: AbortSignal,
  work: (credentials: Credentials) => Promise<T>,
): Promise<T> {
  const fresh = await freshCredentials(deps, account, adapter, credentials, signal);
  try {
    return await work(fresh);
  } catch (err) {
    if (!(err instanceof NetworkError && err.kind === "reauth" && adapter.oauth && refreshable(fresh)))
      throw err;
    const renewed = await refreshShared(deps, account, adapter, signal, String(fresh.access_token ?? ""));
    return work(renewed);
  }
}

/** One refresh at a time per account; `stale`, an access token refused, forces one unless it was replaced. */
function refreshShared(
  deps: ServiceDeps,
  account: AccountRecord,
  adapter: NetworkAdapter,
  signal: AbortSignal,
  stale: string | null,
): Promise<Credentials> {
  const key = `${account.user_id}|${account.mode}|${account.platform}`;
  const flights = deps.publishing.refreshes;
  let flight = flights.get(key);
  if (!flight) {
    const run = () => refreshOnce(deps, account, adapter, signal, stale);
    const { store } = deps;
    flight = (
      store.shared && store.exclusivelyForUser ? store.exclusivelyForUser(account.user_id, run) : run()
    ).finally(() => flights.delete(key));
    flights.set(key, flight);
  }
  return flight;
}

async function refreshOnce(
  deps: ServiceDeps,
  account: AccountRecord,
  adapter: NetworkAdapter,
  signal: AbortSignal,
  stale: string | null,
): Promise<Credentials> {
  const name = NETWORK_RULES[account.platform].name;
  // Read again: another refresh may have stored new credentials since this attempt read them.
  const current = await deps.store.getAccount(account.user_id, account.mode, account.platform);
  if (!current?.credentials) {
    throw new NetworkError(account.platform, "refused", `The ${name} account was disconnected meanwhile.`);
  }
  const credentials = openCredentials(deps, current);
  const due =
    stale === null ? needsRefresh(credentials, deps.clock.now()) : credentials.access_token === stale;
  if (!due || !refreshable(credentials)) return credentials;
  try {
    const next = await adapter.oauth!.refresh(
      credentials,
      AbortSignal.any([signal, AbortSignal.timeout(REFRESH_TIMEOUT_MS)]),
    );
    // Written without `expected`: the refresh token just spent no longer works at the network, so the
    // new pair must be kept whatever replaced the stored value meanwhile (a reseal holds the same grant).
    const stored = await deps.store.setAccountCredentials(
      current.user_id,
      current.mode,
      current.platform,
      sealCredentials(deps, current, next),
    );
    if (!stored) {
      throw new NetworkError(account.platform, "refused", `The ${name} account was disconnected meanwhile.`);
    }
    return next;
  } catch (err) {
    if (err instanceof NetworkError && err.kind === "reauth") {
      const after = await deps.store.getAccount(account.user_id, account.mode, account.platform);
      if (after?.credentials && after.credentials !== current.credentials)
        return openCredentials(deps, after);
    }
    throw err;
  }
}

/** Moves the account to the health its grant calls for (expiring, or ended), once. */
async function noteGrantHealth(
  deps: ServiceDeps,
  account: AccountRecord,
  credentials: Credentials,
  now: number,
): Promise<void> {
  const health = grantHealth(credentials, now);
  if (health === null || health === account.health) return;
  await deps.store.updateAccount(
    account.user_id,
    account.mode,
    account.platform,
    { health },
    (before, after) =>
      health === "reauth_required" && before.health !== "reauth_required"
        ? { events: [accountEvent("account.disconnected", after, now)] }
        : {},
  );
  if (health === "reauth_required") {
    const name = NETWORK_RULES[account.platform].name;
    throw new NetworkError(
      account.platform,
      "reauth",
      `The ${name} grant of ${account.handle} has ended and ${name} gives no way to renew it without the user`,
    );
  }
}
