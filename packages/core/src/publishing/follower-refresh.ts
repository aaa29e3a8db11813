import { NETWORK_RULES } from "../contract/networks.ts";
import type { ServiceDeps } from "../service/context.ts";
import type { AccountRecord } from "../store/types.ts";
import { AccountCredentials } from "./account-credentials.ts";

/*
 * Keeps live accounts' follower counts current. GET /accounts answers with what the store holds, then
 * re-reads, in the background, the followers of each live account last read more than
 * `followersMaxAgeMs` ago (6 hours). At most one read per account is under way at a time; a failed read
 * is logged (without credentials) and leaves the count as it was until the next listing after the
 * interval. When the followers were last read is kept in memory: an account's connect counts as its
 * first read, so after a restart an account connected more than 6 hours ago is read once more.
 */

export interface FollowerReads {
  /** When each account's followers were last read (Unix ms), by account key. */
  readAt: Map<string, number>;
  /** Accounts whose followers are being read now. */
  inFlight: Set<string>;
}

export const newFollowerReads = (): FollowerReads => ({ readAt: new Map(), inFlight: new Set() });

const keyOf = (a: Pick<AccountRecord, "user_id" | "mode" | "platform">) =>
  `${a.user_id}\0${a.mode}\0${a.platform}`;

/** Starts, in the background, a read of each of `accounts` whose followers are due for one. */
export function refreshStaleFollowers(deps: ServiceDeps, accounts: readonly AccountRecord[]): void {
  const reads = deps.publishing.followers;
  const now = deps.clock.now();
  for (const account of accounts) {
    if (account.mode !== "live" || account.credentials === null) continue;
    const adapter = deps.publishing.adapterFor("live", account.platform);
    if (!adapter?.readFollowers) continue;
    const key = keyOf(account);
    const last = reads.readAt.get(key) ?? account.connected_at;
    if (now - last <= deps.publishing.options.followersMaxAgeMs || reads.inFlight.has(key)) continue;
    reads.inFlight.add(key);
    const readFollowers = adapter.readFollowers.bind(adapter);
    const work = (async () => {
      let credentials: AccountCredentials | undefined;
      try {
        credentials = new AccountCredentials(deps, account, adapter);
        // Read with the credentials as stored: a followers read refreshes no token.
        const followers = await readFollowers(
          credentials.session(),
          AbortSignal.any([
            deps.publishing.shutdown,
            AbortSignal.timeout(deps.publishing.options.attemptTimeoutMs),
          ]),
        );
        await deps.store.updateAccount(account.user_id, account.mode, account.platform, { followers });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        deps.logger.warn(
          { platform: account.platform, error: credentials ? credentials.redact(message) : message },
          `reading ${NETWORK_RULES[account.platform].name} followers failed; they are read again on a listing after ${deps.publishing.options.followersMaxAgeMs / 3_600_000} h`,
        );
      } finally {
        // A failure counts as a read too, so a network that is down is not asked on every listing.
        reads.readAt.set(key, deps.clock.now());
        reads.inFlight.delete(key);
      }
    })();
    deps.publishing.background.add(work);
    void work.finally(() => deps.publishing.background.delete(work));
  }
}

/** Called when an account is (re)connected: its followers were read just now. */
export function followersReadAt(
  deps: ServiceDeps,
  account: Pick<AccountRecord, "user_id" | "mode" | "platform">,
  at: number,
): void {
  deps.publishing.followers.readAt.set(keyOf(account), at);
}
