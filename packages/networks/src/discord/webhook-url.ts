import { NetworkError } from "@socialpub/core";

/*
 * A Discord webhook URL is the credential itself: https://discord.com/api/webhooks/{id}/{token}. It is
 * taken only on the Discord host the server is configured with (discord.com and its ptb/canary and
 * discordapp.com aliases by default), so a pasted URL cannot make the server post anywhere else.
 */

export interface WebhookRef {
  id: string;
  token: string;
}

const PATH = /^\/api(?:\/v\d+)?\/webhooks\/(\d{1,25})\/([A-Za-z0-9_-]{1,200})\/?$/;
const DEFAULT_ALIASES = ["discord.com", "ptb.discord.com", "canary.discord.com", "discordapp.com"];

/** The hosts a webhook URL may be on, given the configured API URL. */
export function allowedHosts(apiUrl: URL, isDefault: boolean): string[] {
  return isDefault ? DEFAULT_ALIASES : [apiUrl.host];
}

const refused = (message: string) => new NetworkError("discord", "refused", message);

/** Parses and checks a pasted webhook URL; the error names what to fix and never repeats the URL. */
export function parseWebhookUrl(value: unknown, hosts: readonly string[]): WebhookRef & { url: URL } {
  if (typeof value !== "string" || value.trim() === "") {
    throw refused(
      "webhook_url is required: in Discord, open the channel's settings → Integrations → Webhooks, create a webhook and copy its URL.",
    );
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw refused('webhook_url is not a URL: paste the whole URL from Discord\'s "Copy Webhook URL" button.');
  }
  if (!hosts.includes(url.host)) {
    throw refused(`webhook_url must be a Discord webhook URL on ${hosts[0]}; this one is on another host.`);
  }
  const match = PATH.exec(url.pathname);
  if (!match || url.username || url.password) {
    throw refused(
      `webhook_url is not a webhook URL: it looks like https://${hosts[0]}/api/webhooks/{id}/{token}.`,
    );
  }
  return { id: match[1]!, token: match[2]!, url };
}
