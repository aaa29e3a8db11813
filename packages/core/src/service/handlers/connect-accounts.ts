import type { z } from "zod";
import { isNetworkId } from "../../contract/networks.ts";
import { PLANS } from "../../contract/plans.ts";
import type { ConnectAccountBody, SandboxAccountBody } from "../../contract/requests.ts";
import { newId } from "../../ids.ts";
import { defaultHandle } from "../../provision.ts";
import type { AccountRecord, NewEvent } from "../../store/types.ts";
import type { KeepAnswer, RequestContext } from "../context.ts";
import { badRequest, HttpError } from "../http-error.ts";
import { json } from "../responses.ts";
import { toAccount } from "../serialize.ts";

/** account.connected or account.disconnected for the account as it now stands. */
export function accountEvent(
  type: "account.connected" | "account.disconnected",
  account: AccountRecord,
  now: number,
): NewEvent {
  return {
    id: newId("evt", now),
    user_id: account.user_id,
    type,
    created: Math.floor(now / 1000),
    data: { platform: account.platform, handle: account.handle, health: account.health },
  };
}

/**
 * POST /accounts/connect: in sandbox the account connects at once (201; 200 when it was already
 * connected, which reconnects it: health back to healthy). A new account beyond the plan's profiles
 * answers 400. Writes account.connected.
 */
export async function connectAccount({
  deps,
  caller,
  body,
  keptAnswer,
}: RequestContext<z.output<typeof ConnectAccountBody>>): Promise<Response> {
  const now = deps.clock.now();
  const { user } = caller;
  // Count and write as one step of the user's queue: concurrent connects cannot pass the limit together.
  const { account, existing } = await deps.perUser.run(user.id, () =>
    putConnected(deps, caller, body, now, keptAnswer),
  );
  return json(existing ? 200 : 201, toAccount(account));
}

async function putConnected(
  deps: RequestContext["deps"],
  { user }: RequestContext["caller"],
  body: z.output<typeof ConnectAccountBody>,
  now: number,
  keptAnswer: KeepAnswer,
): Promise<{ account: AccountRecord; existing: AccountRecord | null }> {
  const existing = await deps.store.getAccount(user.id, body.platform);
  if (!existing) {
    const connected = (await deps.store.listAccounts(user.id)).length;
    const allowed = PLANS[user.plan].profiles;
    if (connected >= allowed) {
      throw badRequest(
        `The ${user.plan} plan allows ${allowed} connected profiles and all are in use; disconnect one or upgrade the plan.`,
      );
    }
  }
  const account: AccountRecord = {
    user_id: user.id,
    platform: body.platform,
    handle: body.handle ?? existing?.handle ?? defaultHandle(body.platform, user.studio),
    followers: existing?.followers ?? 0,
    health: "healthy",
    connected_at: existing?.connected_at ?? now,
  };
  await deps.store.putAccount(account, {
    events: [accountEvent("account.connected", account, now)],
    idempotency: keptAnswer(existing ? 200 : 201, toAccount(account)),
  });
  return { account, existing };
}

/** DELETE /accounts/{platform}: disconnects; posts already scheduled to it fail that network. */
export async function disconnectAccount({
  deps,
  caller,
  params,
  keptAnswer,
}: RequestContext): Promise<Response> {
  const platform = params.platform!;
  const account = isNetworkId(platform) ? await deps.store.getAccount(caller.user.id, platform) : null;
  if (!account)
    throw new HttpError(404, `No ${isNetworkId(platform) ? platform : "such"} account is connected.`);
  const now = deps.clock.now();
  const answer = { deleted: true, id: account.platform };
  await deps.store.deleteAccount(caller.user.id, account.platform, {
    events: [accountEvent("account.disconnected", account, now)],
    idempotency: keptAnswer(200, answer),
  });
  return json(200, answer);
}

/**
 * PATCH /sandbox/accounts/{platform} (test keys): sets a sandbox account's health, as a network would
 * when a token expires. Turning reauth_required sends account.disconnected (the account needs
 * attention); leaving it sends account.connected.
 */
export async function setSandboxAccountHealth({
  deps,
  caller,
  params,
  body,
  keptAnswer,
}: RequestContext<z.output<typeof SandboxAccountBody>>): Promise<Response> {
  if (caller.key.mode !== "test") {
    throw new HttpError(403, "Sandbox accounts take a test key (sp_test_…).");
  }
  const platform = params.platform!;
  const account = isNetworkId(platform) ? await deps.store.getAccount(caller.user.id, platform) : null;
  if (!account)
    throw new HttpError(404, `No ${isNetworkId(platform) ? platform : "such"} account is connected.`);
  const now = deps.clock.now();
  const updated: AccountRecord = { ...account, health: body.health };
  const events: NewEvent[] = [];
  if (body.health === "reauth_required" && account.health !== "reauth_required") {
    events.push(accountEvent("account.disconnected", updated, now));
  } else if (body.health !== "reauth_required" && account.health === "reauth_required") {
    events.push(accountEvent("account.connected", updated, now));
  }
  await deps.store.putAccount(updated, { events, idempotency: keptAnswer(200, toAccount(updated)) });
  return json(200, toAccount(updated));
}
