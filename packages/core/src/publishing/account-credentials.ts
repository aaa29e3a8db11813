import { NETWORK_RULES } from "../contract/networks.ts";
import {
  type AccountSession,
  type Credentials,
  type NetworkAdapter,
  NetworkError,
} from "../networks/adapter.ts";
import { accountBinding, CredentialKeyError } from "../secrets/credential-keyring.ts";
import { accountEvent } from "../service/account-event.ts";
import type { ServiceDeps } from "../service/context.ts";
import { grantHealth, needsRefresh, refreshable } from "../service/oauth/grant.ts";
import type { AccountRecord } from "../store/types.ts";
import { redactCredentials } from "./redact.ts";

/*
 * An account's credentials, from the sealed value the store keeps to what an adapter is handed: opened
 * with the server's secret key, refreshed when an OAuth token ends soon, sealed and saved again when
 * they change. Everything that uses a live account's credentials (an attempt, a figures read, a
 * followers read) goes through one AccountCredentials made for that piece of work.
 */

/** A live account's credentials, opened; a sandbox account has none. */
export function openCredentials(deps: ServiceDeps, account: AccountRecord): Credentials {
  if (account.credentials === null) return {};
  const keyring = deps.publishing.keyring;
  if (!keyring) throw new CredentialKeyError("this server was started without its secret key");
  const binding = accountBinding(account.user_id, account.mode, account.platform);
  return JSON.parse(keyring.open(account.credentials, binding)) as Credentials;
}

/** Seals credentials for the account they belong to. */
export function sealCredentials(
  deps: ServiceDeps,
  account: Pick<AccountRecord, "user_id" | "mode" | "platform">,
  credentials: Credentials,
): string {
  const keyring = deps.publishing.keyring;
  if (!keyring) throw new CredentialKeyError("this server was started without its secret key");
  return keyring.seal(
    JSON.stringify(credentials),
    accountBinding(account.user_id, account.mode, account.platform),
  );
}

/**
 * One account's credentials for one piece of work on its network (an attempt, a read): opened once
 * when it is made (throws when they cannot be: CredentialKeyError, or a value the key does not open),
 * then handed to the adapter as an AccountSession, fresh (`use`) or as stored (`session`). Whatever the
 * adapter or a refresh saves is sealed for this account and written to the store before it is used.
 */
export class AccountCredentials {
  readonly #deps: ServiceDeps;
  readonly #account: AccountRecord;
  readonly #adapter: NetworkAdapter;
  readonly #opened: Credentials;
  #current: Credentials;

  constructor(deps: ServiceDeps, account: AccountRecord, adapter: NetworkAdapter) {
    this.#deps = deps;
    this.#account = account;
    this.#adapter = adapter;
    this.#opened = openCredentials(deps, account);
    this.#current = this.#opened;
  }

  /** The credentials as opened, handed to an adapter without refreshing them first. */
  session(): AccountSession {
    return this.#sessionWith(this.#current);
  }

  /**
   * Runs `work` (a publish, a read) with fresh credentials: an OAuth token that ends soon is refreshed
   * first; when the network answers the work "unauthorized" although the token looked good (it ended
   * early, or clocks differ), the token is refreshed once and the work run again. An unauthorized answer
   * means nothing was done, so running the work again cannot do it twice.
   */
  async use<T>(signal: AbortSignal, work: (session: AccountSession) => Promise<T>): Promise<T> {
    const deps = this.#deps;
    const account = this.#account;
    const adapter = this.#adapter;
    const fresh = await freshCredentials(deps, account, adapter, this.#current, signal);
    this.#current = fresh;
    try {
      return await work(this.#sessionWith(fresh));
    } catch (err) {
      if (!(err instanceof NetworkError && err.kind === "reauth" && adapter.oauth && refreshable(fresh)))
        throw err;
      const renewed = await refreshShared(deps, account, adapter, signal, String(fresh.access_token ?? ""));
      this.#current = renewed;
      return work(this.#sessionWith(renewed));
    }
  }

  /** `text` with the credentials it was opened with and those last used replaced (redact.ts). */
  redact(text: string): string {
    return redactCredentials(redactCredentials(text, this.#opened), this.#current);
  }

  #sessionWith(credentials: Credentials): AccountSession {
    const deps = this.#deps;
    const account = this.#account;
    return {
      handle: account.handle,
      credentials,
      async saveCredentials(next) {
        if (account.credentials === null) return;
        const sealed = sealCredentials(deps, account, next);
        await deps.store.setAccountCredentials(account.user_id, account.mode, account.platform, sealed);
      },
    };
  }
}

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
async function freshCredentials(
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
