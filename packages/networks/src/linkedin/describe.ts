// What this network is, as data (../describe.ts): nothing here loads the adapter.
import { NETWORK_RULES } from "@socialpub/core";
import { type NetworkDescription, oauthSettings } from "../describe.ts";

/** Sign In with LinkedIn (OpenID Connect: who the member is) and Share on LinkedIn (posting). */
export const LINKEDIN_DEFAULT_SCOPES = ["openid", "profile", "w_member_social"];

export const linkedinDescription = {
  id: "linkedin",
  name: NETWORK_RULES.linkedin.name,
  connect: {
    kind: "oauth",
    scopes: LINKEDIN_DEFAULT_SCOPES,
    pkce: false,
    page: "LinkedIn's own page",
    fields: [],
  },
  settings: oauthSettings(
    "https://api.linkedin.com",
    "https://www.linkedin.com: its authorize page and token endpoint",
  ),
  rules: NETWORK_RULES.linkedin,
  // LinkedIn's member limit on creating posts: 150 a day.
  pacing: [{ count: 150, windowMs: 24 * 60 * 60_000 }],
} as const satisfies NetworkDescription<"linkedin">;
