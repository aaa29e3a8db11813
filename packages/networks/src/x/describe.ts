// What this network is, as data (../describe.ts): nothing here loads the adapter.
import { NETWORK_RULES } from "@socialpub/core";
import { type NetworkDescription, oauthSettings } from "../describe.ts";

/** What the server asks X for: posting with media, reading the account, and a refresh token. */
export const X_DEFAULT_SCOPES = ["tweet.read", "tweet.write", "users.read", "media.write", "offline.access"];

export const xDescription = {
  id: "x",
  name: NETWORK_RULES.x.name,
  connect: {
    kind: "oauth",
    scopes: X_DEFAULT_SCOPES,
    pkce: true,
    page: "X's own page",
    fields: [],
  },
  settings: oauthSettings(
    "https://api.x.com: the API and its token endpoint",
    "https://x.com/i/oauth2/authorize: the page where users grant access",
  ),
  rules: NETWORK_RULES.x,
  // X's documented limit on creating posts with a user token: 100 per 15 minutes per user.
  pacing: [{ count: 100, windowMs: 15 * 60_000 }],
} as const satisfies NetworkDescription<"x">;
