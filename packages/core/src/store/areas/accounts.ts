import type { NetworkId } from "../../contract/networks.ts";
import type { AccountHealth } from "../../contract/resources.ts";
import type { Effects } from "./effects.ts";
import type { KeyMode } from "./keys.ts";

/**
 * A connected account. A user has one per network in each mode: the sandbox account a test key
 * publishes to, and the live account a live key publishes through the network's adapter.
 */
export interface AccountRecord {
  user_id: string;
  mode: KeyMode;
  platform: NetworkId;
  handle: string;
  followers: number;
  health: AccountHealth;
  connected_at: number;
  /**
   * A live account's credentials, sealed (AES-256-GCM, see secrets/credential-keyring.ts): the store
   * never holds them in the clear and cannot open them. Null for sandbox accounts.
   */
  credentials: string | null;
  /**
   * When the account's grant ends (Unix ms), for a live grant we cannot refresh (Meta's 60-day tokens, a
   * LinkedIn member token): the account turns `expiring` 7 days before and `reauth_required` then,
   * without opening its credentials (see settleEndingGrants). Not secret. Absent when the grant is
   * refreshed or does not end (a store hands back no null).
   */
  grant_ends_at?: number;
}

/**
 * An OAuth connect under way: made by POST /accounts/connect with a live key, taken (once) by the
 * network's redirect to the callback. Only the state's SHA-256 is kept, as for API keys: the state
 * itself is what the callback trusts, so a copy of the store cannot finish someone's connect.
 */
export interface OAuthStateRecord {
  /** SHA-256 (hex) of the state handed to the network in the authorize URL. */
  state_hash: string;
  user_id: string;
  platform: NetworkId;
  /** What the callback needs to finish (the PKCE verifier), sealed like credentials. */
  secret: string;
  created_at: number;
  /** After this (Unix ms) the state is refused: 15 minutes after it was made. */
  expires_at: number;
}

/** What `updateAccount` may change; never the owner, mode, network or credentials. */
export type AccountPatch = Partial<Pick<AccountRecord, "handle" | "followers" | "health">>;

/**
 * Connected accounts (one per user, mode and network), their sealed credentials and ending grants,
 * and OAuth connects under way.
 */
export interface AccountStore {
  // Accounts (one per user, mode and network)
  /** The user's accounts of one mode, in the order they were first connected. */
  listAccounts(userId: string, mode: KeyMode): Promise<AccountRecord[]>;
  getAccount(userId: string, mode: KeyMode, platform: NetworkId): Promise<AccountRecord | null>;
  /** Inserts or replaces the account for (user, mode, platform), credentials included. */
  putAccount(account: AccountRecord, effects?: Effects): Promise<void>;
  /**
   * Changes handle, followers or health of an existing account, leaving its credentials as they are (a
   * refresh may be storing new ones meanwhile). Null, and no effects, when there is no such account.
   * `effectsFor` gets the account as it was and as updated.
   */
  updateAccount(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    patch: AccountPatch,
    effectsFor?: (before: AccountRecord, after: AccountRecord) => Effects,
  ): Promise<AccountRecord | null>;
  /**
   * Replaces an existing account's sealed credentials; false when the account is gone or, given
   * `expected`, when its credentials are no longer `expected` (someone replaced them meanwhile, e.g. a
   * refreshed session while `secrets reseal` ran).
   */
  setAccountCredentials(
    userId: string,
    mode: KeyMode,
    platform: NetworkId,
    credentials: string,
    expected?: string,
  ): Promise<boolean>;
  deleteAccount(userId: string, mode: KeyMode, platform: NetworkId, effects?: Effects): Promise<boolean>;
  /** How many accounts hold sealed credentials (a server with any refuses to start without its key). */
  countAccountsWithCredentials(): Promise<number>;
  /**
   * The sweep of grants we cannot refresh, across users: live accounts with a `grant_ends_at` whose
   * health that end calls for at `now` — `healthy` ones whose grant ends within `aheadMs` become
   * `expiring`, and ones not yet `reauth_required` whose grant has ended (at or before `now`) become
   * `reauth_required` — at most `limit`, earliest end first. Each account changes once: the change is
   * conditional on the health it replaces, so of instances sweeping at once one makes it (and writes
   * its effects) and the others skip it. `effectsFor` gets each account as changed, and what it answers
   * is written in the same step. Answers the accounts changed.
   */
  settleEndingGrants(
    now: number,
    aheadMs: number,
    limit: number,
    effectsFor?: (account: AccountRecord) => Effects,
  ): Promise<AccountRecord[]>;
  /**
   * When settleEndingGrants next has something to do: the earliest `grant_ends_at - aheadMs` of live
   * `healthy` accounts and `grant_ends_at` of live `expiring` ones (a time already past when one is due
   * now), or null when no account's grant will change its health.
   */
  nextGrantChangeAt(aheadMs: number): Promise<number | null>;
  /**
   * Live accounts of `platforms` that hold credentials but no `grant_ends_at` (connected before it was
   * kept, or holding a grant that is refreshed or does not end), in (user_id, platform) order after
   * `after`, at most `limit`: what filling grant_ends_at in from the sealed credentials goes through.
   */
  listAccountsWithoutGrantEnd(
    platforms: readonly NetworkId[],
    after: { user_id: string; platform: NetworkId } | null,
    limit: number,
  ): Promise<AccountRecord[]>;
  /**
   * Sets `grant_ends_at` of a live account that has none and whose sealed credentials are still
   * `expected` (neither reconnected nor refreshed since they were read), changing nothing else; false,
   * and nothing written, otherwise.
   */
  fillGrantEnd(userId: string, platform: NetworkId, grantEndsAt: number, expected: string): Promise<boolean>;

  // OAuth connects under way (single-use states, bound to the user)
  /** Stores a pending connect; connects that expired at or before its created_at are removed with it. */
  putOAuthState(record: OAuthStateRecord): Promise<void>;
  /**
   * Removes the pending connect with this state hash and answers it, once: a second take of the same
   * state answers null. One that expired at or before `now` is removed and answers null too.
   */
  takeOAuthState(stateHash: string, now: number): Promise<OAuthStateRecord | null>;
}
