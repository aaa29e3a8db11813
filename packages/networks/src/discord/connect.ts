import { type ConnectContext, type ConnectedAccount, NetworkError } from "@socialpub/core";
import type { WaitGate } from "../common/wait-gate.ts";
import type { DiscordCredentials, WebhookObject } from "./types.ts";
import { callWebhook, type WebhookApiConfig } from "./webhook-api.ts";
import { parseWebhookUrl } from "./webhook-url.ts";

/*
 * Connecting = fetching the webhook with its own token (GET /webhooks/{id}/{token}): it proves the URL
 * works and names the webhook (the account's handle), its server and its channel (for permalinks).
 * Webhooks have no followers.
 */

export async function connectDiscord(
  config: WebhookApiConfig,
  gate: WaitGate,
  hosts: readonly string[],
  fields: Readonly<Record<string, unknown>>,
  context: ConnectContext,
): Promise<ConnectedAccount> {
  const webhook = parseWebhookUrl(fields.webhook_url, hosts);
  // The address rule needs the host only; the path, which holds the token, stays here.
  await context.checkUserUrl(webhook.url.origin, "webhook_url");
  const found = (await callWebhook(config, gate, webhook, {
    method: "GET",
    signal: context.signal,
    sends: false,
  })) as WebhookObject;
  if (found.type !== 1 || !found.guild_id || !found.channel_id) {
    throw new NetworkError(
      "discord",
      "refused",
      "This webhook cannot post messages (it is not a channel's incoming webhook): create one in the channel's settings → Integrations → Webhooks.",
    );
  }
  const credentials: DiscordCredentials = {
    webhook_url: `${webhook.url.origin}/api/webhooks/${webhook.id}/${webhook.token}`,
    guild_id: found.guild_id,
    channel_id: found.channel_id,
  };
  return {
    handle: found.name ?? "Discord webhook",
    followers: 0,
    health: "healthy",
    credentials: { ...credentials },
  };
}
