// What this network is, as data (../describe.ts): nothing here loads the adapter.
import { NETWORK_RULES } from "@socialpub/core";
import type { NetworkDescription } from "../describe.ts";

export const discordDescription = {
  id: "discord",
  name: NETWORK_RULES.discord.name,
  connect: {
    kind: "credentials",
    fields: [
      {
        name: "webhook_url",
        label: "Webhook URL",
        secret: true,
        required: true,
        help: "From the channel's Integrations → Webhooks; it holds the webhook's token, so it is a secret.",
      },
    ],
  },
  settings: [
    {
      name: "api_url",
      option: "apiUrl",
      kind: "url",
      about: "https://discord.com: Discord webhook URLs must be on its host",
    },
  ],
  rules: NETWORK_RULES.discord,
  // Discord publishes no fixed numbers (its X-RateLimit-* headers are the authority, and are obeyed);
  // a webhook is observed to take 5 messages in 2 seconds and a channel about 30 a minute.
  pacing: [
    { count: 5, windowMs: 2000 },
    { count: 30, windowMs: 60_000 },
  ],
} as const satisfies NetworkDescription<"discord">;
