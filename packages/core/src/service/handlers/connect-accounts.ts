import type { z } from "zod";
import { isNetworkId, NETWORK_RULES } from "../../contract/networks.ts";
import type { ConnectAccountBody, SandboxAccountBody } from "../../contract/requests.ts";
import { defaultHandle } from "../../provision.ts";
import type { AccountRecord, NewEvent } from "../../store/types.ts";
import { accountEvent } from "../account-event.ts";
import type { RequestContext } from "../context.ts";
import { HttpError } from "../http-error.ts";
import { json } from "../responses.ts";
import { toAccount } from "../serialize.ts";
import { putWithinPlan } from "./account-plan.ts";
import { connectLiveAccount } from "./connect-live-account.ts";

/**
 * POST /accounts/connect. With a test key the sandbox account connects at once (201; 200 when it was
 * already connected, which reconnects it: health back to healthy). With a live key the network checks
 * the credentials first (connect-live-account.ts). A new account beyond the plan's profiles answers
 * 400. Writes account.connected.
 */
export async function connectAccount(
  ctx: RequestContext<z.output<typeof ConnectAccountBody>>,
): Promise<Response> {
  if (ctx.caller.key.mode === "live") return connectLiveAccount(ctx);
  const { deps, caller, body, keptAnswer } = ctx;
  const now = deps.clock.now();
  const { user } = caller;
  const existing = await deps.store.getAccount(user.id, "test", body.platform);
  const account: AccountRecord = {
    user_id: user.id,
    mode: "test",
    platform: body.platform,
    handle: body.handle ?? existing?.handle ?? defaultHandle(body.platform, user.studio),
    followers: existing?.followers ?? 0,
    health: "healthy",
    connected_at: existing?.connected_at ?? now,
    credentials: null,
  };
  const written = await putWithinPlan(deps, caller, account, now, keptAnswer);
  return json(written.existing ? 200 : 201, toAccount(account));
}

/** DELETE /accounts/{platform}: disconnects; posts already scheduled to it fail that network. */
export async function disconnectAccount({
  deps,
  caller,
  params,
  keptAnswer,
}: RequestContext): Promise<Response> {
  const platform = params.platform!;
  const mode = caller.key.mode;
  const account = isNetworkId(platform) ? await deps.store.getAccount(caller.user.id, mode, platform) : null;
  if (!account)
    throw new HttpError(404, `No ${isNetworkId(platform) ? platform : "such"} account is connected.`);
  const now = deps.clock.now();
  const answer = { deleted: true, id: account.platform };
  // The sealed credentials go with the record.
  await deps.store.deleteAccount(caller.user.id, mode, account.platform, {
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
  const account = isNetworkId(platform)
    ? await deps.store.getAccount(caller.user.id, "test", platform)
    : null;
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

/** "Bluesky" for "bluesky": how errors name a network. */
export const networkName = (platform: keyof typeof NETWORK_RULES) => NETWORK_RULES[platform].name;
