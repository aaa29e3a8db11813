import {
  type AccountHealth,
  type AccountRecord,
  accountEvent,
  type NetworkId,
  PLANS,
  type Store,
  type UserRecord,
} from "@socialpub/core";
import { CliError } from "../errors.ts";

export interface ConnectAccount {
  platform: NetworkId;
  handle: string;
  followers: number;
  health: AccountHealth;
}

/**
 * Connects (or reconnects) a sandbox account, within the plan's number of profiles, and tells the
 * user's webhooks — what the dashboard's connect flow does: account.connected, or account.disconnected
 * for an account in reauth_required, which needs attention (it cannot be published to) like one that
 * turns reauth_required through the sandbox API.
 */
export async function connectAccount(
  store: Store,
  user: UserRecord,
  input: ConnectAccount,
  now = Date.now(),
): Promise<AccountRecord> {
  const existing = await store.listAccounts(user.id, "test");
  const allowed = PLANS[user.plan].profiles;
  if (!existing.some((a) => a.platform === input.platform) && existing.length >= allowed) {
    throw new CliError(
      `the ${user.plan} plan allows ${allowed} connected profiles and ${user.email} has ${existing.length}; disconnect one first.`,
    );
  }
  const account: AccountRecord = {
    user_id: user.id,
    mode: "test",
    ...input,
    connected_at: now,
    credentials: null,
  };
  const type = account.health === "reauth_required" ? "account.disconnected" : "account.connected";
  await store.putAccount(account, { events: [accountEvent(type, account, now)] });
  return account;
}

export async function disconnectAccount(
  store: Store,
  user: UserRecord,
  platform: NetworkId,
  mode: AccountRecord["mode"] = "test",
  now = Date.now(),
): Promise<void> {
  const account = await store.getAccount(user.id, mode, platform);
  // A live account's sealed credentials are part of its record, so they go with it.
  const removed =
    account !== null &&
    (await store.deleteAccount(user.id, mode, platform, {
      events: [accountEvent("account.disconnected", account, now)],
    }));
  if (!removed) {
    const other = mode === "live" ? "sandbox" : "live";
    const there = await store.getAccount(user.id, mode === "live" ? "test" : "live", platform);
    throw new CliError(
      `${user.email} has no ${mode === "live" ? "live " : ""}${platform} account connected${there ? `; it has a ${other} one (${mode === "live" ? "leave out" : "add"} --live)` : ""}.`,
    );
  }
}
