// What this network is, as data (../describe.ts): nothing here loads the adapter.
import { NETWORK_RULES } from "@socialpub/core";
import { type NetworkDescription, oauthSettings } from "../describe.ts";

export const PINTEREST_DEFAULT_SCOPES = [
  "boards:read",
  "boards:write",
  "pins:read",
  "pins:write",
  "user_accounts:read",
];

export const pinterestDescription = {
  id: "pinterest",
  name: NETWORK_RULES.pinterest.name,
  connect: {
    kind: "oauth",
    scopes: PINTEREST_DEFAULT_SCOPES,
    pkce: false,
    page: "Pinterest's own page",
    fields: [
      {
        name: "board",
        label: "Board",
        secret: false,
        required: false,
        help: "The board pins go to, by name or id; the account's first board when left empty.",
      },
    ],
  },
  settings: oauthSettings(
    "https://api.pinterest.com; trial access: https://api-sandbox.pinterest.com",
    "https://www.pinterest.com/oauth/",
  ),
  rules: NETWORK_RULES.pinterest,
  // Pinterest's write limit per user and app (org_write): 100 calls a minute.
  pacing: [{ count: 100, windowMs: 60_000 }],
} as const satisfies NetworkDescription<"pinterest">;
