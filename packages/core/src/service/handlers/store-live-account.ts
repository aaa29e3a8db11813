import type { ConnectedAccount } from "../../networks/adapter.ts";
import { sealCredentials } from "../../publishing/account-credentials.ts";
import type { AccountRecord, UserRecord } from "../../store/types.ts";
import type { KeepAnswer, ServiceDeps } from "../context.ts";
import { grantChangeAt, grantEndsAt, grantHealth } from "../oauth/grant.ts";
import { putWithinPlan } from "./account-plan.ts";

/**
 * Keeps a live account a network has just vouched for, the same way whether its credentials were
 * checked at once (POST /accounts/connect, `accounts connect --live`) or granted at an OAuth callback:
 * the credentials sealed to the account, the account stored within the user's plan, account.connected
 * sent. A grant that cannot be refreshed keeps when it ends on the account (grant_ends_at, for the
 * sweep of ending grants) and starts `expiring` when that is within 7 days (credentials that do not end
 * keep the health the network reported). Throws the plan's HttpError 400 when no profile is free.
 * A reconnected account keeps its first connected_at.
 */
export async function storeLiveAccount(
  deps: ServiceDeps,
  user: UserRecord,
  platform: AccountRecord["platform"],
  connected: ConnectedAccount,
  keptAnswer: KeepAnswer,
): Promise<{ created: boolean; account: AccountRecord }> {
  const now = deps.clock.now();
  const account: AccountRecord = {
    user_id: user.id,
    mode: "live",
    platform,
    handle: connected.handle,
    followers: connected.followers,
    health: grantHealth(connected.credentials, now) ?? connected.health,
    connected_at: now,
    credentials: null,
  };
  const endsAt = grantEndsAt(connected.credentials);
  if (endsAt !== null) account.grant_ends_at = endsAt;
  account.credentials = sealCredentials(deps, account, connected.credentials);
  const { existing } = await putWithinPlan(deps, { user }, account, now, keptAnswer);
  // The sweep of ending grants wakes when this grant turns the account expiring (or ends).
  const changeAt = grantChangeAt(account);
  if (changeAt !== null) deps.publishing.grants.notify(changeAt);
  return {
    created: existing === null,
    account: existing ? { ...account, connected_at: existing.connected_at } : account,
  };
}
