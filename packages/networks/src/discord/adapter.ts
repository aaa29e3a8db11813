import { NETWORK_RULES, type NetworkAdapter, withoutTrailingSlashes } from "@socialpub/core";
import { WaitGate } from "../common/wait-gate.ts";
import { connectDiscord } from "./connect.ts";
import { discordDescription } from "./describe.ts";
import { MAX_FILE_BYTES, publishDiscord } from "./publish.ts";
import type { WebhookApiConfig } from "./webhook-api.ts";
import { allowedHosts } from "./webhook-url.ts";

export interface DiscordAdapterOptions {
  /**
   * Discord's base URL (default https://discord.com; the server reads SOCIALPUB_DISCORD_API_URL). Webhook
   * URLs are accepted on this host only (by default also ptb./canary.discord.com and discordapp.com).
   */
  apiUrl?: string;
  /** Where permalinks point (default https://discord.com). */
  webUrl?: string;
  /** Longest rate-limit wait slept through before a request; longer ones come back as a retry (default 2 s). */
  maxWaitMs?: number;
  fetch?: typeof fetch;
}

export const DISCORD_API_URL = "https://discord.com";

/**
 * Discord through a channel's incoming webhook. Webhooks read nothing back (no reactions, no message
 * search by our key, no member count), so there is no readMetrics, no findPublished and no readFollowers:
 * a Discord account shows 0 followers.
 */
export function discordAdapter(options: DiscordAdapterOptions = {}): NetworkAdapter {
  const apiUrl = new URL(options.apiUrl ?? DISCORD_API_URL);
  const config: WebhookApiConfig = {
    apiUrl: apiUrl.origin + withoutTrailingSlashes(apiUrl.pathname),
    fetch: options.fetch ?? globalThis.fetch,
  };
  const hosts = allowedHosts(apiUrl, options.apiUrl === undefined || apiUrl.origin === DISCORD_API_URL);
  const webUrl = withoutTrailingSlashes(options.webUrl ?? DISCORD_API_URL);
  const gate = new WaitGate({ maxWaitMs: options.maxWaitMs ?? 2000 });
  return {
    id: "discord",
    rule: NETWORK_RULES.discord,
    pacing: discordDescription.pacing,
    maxMediaBytes: MAX_FILE_BYTES,
    connect: (fields, context) => connectDiscord(config, gate, hosts, fields, context),
    publish: (account, post) => publishDiscord(config, gate, webUrl, account, post),
  };
}
