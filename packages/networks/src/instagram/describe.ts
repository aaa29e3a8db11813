// What this network is, as data (../describe.ts): nothing here loads the adapter.
import { NETWORK_RULES } from "@socialpub/core";
import { type NetworkDescription, oauthSettings } from "../describe.ts";

/**
 * Reading the professional account, publishing to it, reading a post's insights (its figures), and
 * adding the first comment to a post (instagram_business_manage_comments).
 */
export const INSTAGRAM_DEFAULT_SCOPES = [
  "instagram_business_basic",
  "instagram_business_content_publish",
  "instagram_business_manage_insights",
  "instagram_business_manage_comments",
];

export const instagramDescription = {
  id: "instagram",
  name: NETWORK_RULES.instagram.name,
  connect: {
    kind: "oauth",
    scopes: INSTAGRAM_DEFAULT_SCOPES,
    pkce: false,
    page: "Instagram's own page",
    fields: [],
  },
  settings: oauthSettings(
    "https://graph.instagram.com; set, it serves the code exchange too",
    "https://www.instagram.com/oauth/authorize",
  ),
  rules: NETWORK_RULES.instagram,
  // Instagram's content publishing limit: 50 posts per 24 hours per account.
  pacing: [{ count: 50, windowMs: 24 * 60 * 60_000 }],
} as const satisfies NetworkDescription<"instagram">;
