// Generated from @socialpub/networks by scripts/generate-contract.mts. Do not edit by hand:
// run `pnpm --filter n8n-nodes-socialpub generate` after changing a network's description.

import type { INodeProperties } from "n8n-workflow";

/** The fields each network takes at connect besides the handle, as the contract's connect body names them. */
export const CONNECT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  facebook: ["page"],
  pinterest: ["board"],
  reddit: ["subreddit"],
  bluesky: ["app_password", "service"],
  discord: ["webhook_url"],
  telegram: ["bot_token", "chat"],
};

/** Fields that take @name or a numeric id, the id sent as a number. */
export const NUMERIC_ID_FIELDS: readonly string[] = ["chat"];

/** The networks that connect with pasted credentials, by name. */
export const CREDENTIAL_NETWORK_NAMES = "Bluesky, Discord and Telegram";

/** The networks that connect through their own page (OAuth), by name. */
export const OAUTH_NETWORK_NAMES = "TikTok, Instagram, YouTube, X, LinkedIn, Facebook, Threads, Pinterest and Reddit";

/** The connect fields as node properties, each shown for its network only. */
export const CONNECT_FIELD_PROPERTIES: INodeProperties[] = [
  {
    displayName: "Page",
    name: "page",
    type: "string",
    default: "",
    displayOptions: { show: { platform: ["facebook"] } },
    description: "Live key: the Page posts go to, by name or ID; the first Page you give on Facebook's page when left empty",
  },
  {
    displayName: "Board",
    name: "board",
    type: "string",
    default: "",
    displayOptions: { show: { platform: ["pinterest"] } },
    description: "Live key: the board pins go to, by name or ID; the account's first board when left empty",
  },
  {
    displayName: "Subreddit",
    name: "subreddit",
    type: "string",
    default: "",
    placeholder: "r/name",
    displayOptions: { show: { platform: ["reddit"] } },
    description: "Live key: where posts go; the account's own profile when left empty",
  },
  {
    displayName: "App Password",
    name: "app_password",
    type: "string",
    typeOptions: { password: true },
    default: "",
    displayOptions: { show: { platform: ["bluesky"] } },
    description: "Live key: made in Bluesky's settings under App passwords; not the account's password",
  },
  {
    displayName: "PDS",
    name: "service",
    type: "string",
    default: "",
    placeholder: "https://bsky.social",
    displayOptions: { show: { platform: ["bluesky"] } },
    description: "Live key: the account's server; leave it empty for bsky.social",
  },
  {
    displayName: "Webhook URL",
    name: "webhook_url",
    type: "string",
    typeOptions: { password: true },
    default: "",
    displayOptions: { show: { platform: ["discord"] } },
    description: "Live key: from the channel's Integrations → Webhooks; it holds the webhook's token, so it is a secret",
  },
  {
    displayName: "Bot Token",
    name: "bot_token",
    type: "string",
    typeOptions: { password: true },
    default: "",
    displayOptions: { show: { platform: ["telegram"] } },
    description: "Live key: from BotFather",
  },
  {
    displayName: "Chat",
    name: "chat",
    type: "string",
    default: "",
    placeholder: "@channel or -100…",
    displayOptions: { show: { platform: ["telegram"] } },
    description: "Live key: the channel or group (@name or numeric ID); the bot must be an admin of it",
  },
];
