import type { NetworkId } from "../api/types.ts";

/** One credential a network takes on POST /accounts/connect with a live key. */
export interface CredentialField {
  /** The body field. */
  name: string;
  label: string;
  /** A secret is typed into a masked field, never kept by the page and never shown back. */
  secret: boolean;
  required: boolean;
  placeholder?: string;
  help?: string;
}

/**
 * The networks a live key can connect by pasting credentials (docs/api.md, "Live keys and live
 * publishing"), and what each asks for. The other networks have no live adapter in this service yet.
 */
export const LIVE_NETWORKS: ReadonlyMap<NetworkId, readonly CredentialField[]> = new Map<
  NetworkId,
  readonly CredentialField[]
>([
  [
    "bluesky",
    [
      { name: "handle", label: "Handle", secret: false, required: true, placeholder: "name.bsky.social" },
      {
        name: "app_password",
        label: "App password",
        secret: true,
        required: true,
        help: "Made in Bluesky's settings under App passwords; not the account's password.",
      },
      {
        name: "service",
        label: "PDS",
        secret: false,
        required: false,
        placeholder: "https://bsky.social",
        help: "The account's server; leave it empty for bsky.social.",
      },
    ],
  ],
  [
    "telegram",
    [
      { name: "bot_token", label: "Bot token", secret: true, required: true, help: "From BotFather." },
      {
        name: "chat",
        label: "Chat",
        secret: false,
        required: true,
        placeholder: "@channel or -100…",
        help: "The channel or group (@name or numeric id); the bot must be an admin of it.",
      },
    ],
  ],
  [
    "discord",
    [
      {
        name: "webhook_url",
        label: "Webhook URL",
        secret: true,
        required: true,
        help: "From the channel's Integrations → Webhooks; it holds the webhook's token, so it is a secret.",
      },
    ],
  ],
]);

/**
 * The connect body from what was typed: empty optional fields left out, a numeric Telegram chat sent
 * as a number (the API takes @name or a numeric id).
 */
export function connectBody(platform: NetworkId, form: FormData): Record<string, unknown> {
  const body: Record<string, unknown> = { platform };
  for (const field of LIVE_NETWORKS.get(platform) ?? []) {
    const value = String(form.get(field.name) ?? "").trim();
    if (value === "") continue;
    body[field.name] = field.name === "chat" && /^-?\d+$/.test(value) ? Number(value) : value;
  }
  return body;
}
