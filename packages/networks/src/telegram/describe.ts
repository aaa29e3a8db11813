// What this network is, as data (../describe.ts): nothing here loads the adapter.
import { NETWORK_RULES } from "@socialpub/core";
import type { NetworkDescription } from "../describe.ts";

export const telegramDescription = {
  id: "telegram",
  name: NETWORK_RULES.telegram.name,
  connect: {
    kind: "credentials",
    fields: [
      { name: "bot_token", label: "Bot token", secret: true, required: true, help: "From BotFather." },
      {
        name: "chat",
        label: "Chat",
        secret: false,
        required: true,
        placeholder: "@channel or -100…",
        help: "The channel or group (@name or numeric id); the bot must be an admin of it.",
        numericId: true,
      },
    ],
  },
  settings: [{ name: "api_url", option: "apiUrl", kind: "url", about: "https://api.telegram.org" }],
  rules: NETWORK_RULES.telegram,
  // Telegram asks bots to send at most one message a second to a chat and 20 a minute to a group;
  // both apply to every chat, as the account does not say which kind it posts to.
  pacing: [
    { count: 1, windowMs: 1000 },
    { count: 20, windowMs: 60_000 },
  ],
} as const satisfies NetworkDescription<"telegram">;
