// What this network is, as data (../describe.ts): nothing here loads the adapter.
import { NETWORK_RULES } from "@socialpub/core";
import { type NetworkDescription, oauthSettings } from "../describe.ts";

/** Listing the user's Pages, posting to them, and commenting as the Page (the first comment). */
export const FACEBOOK_DEFAULT_SCOPES = [
  "pages_show_list",
  "pages_manage_posts",
  "pages_read_engagement",
  "pages_manage_engagement",
];

export const facebookDescription = {
  id: "facebook",
  name: NETWORK_RULES.facebook.name,
  connect: {
    kind: "oauth",
    scopes: FACEBOOK_DEFAULT_SCOPES,
    pkce: false,
    page: "Facebook's own login dialog",
    fields: [
      {
        name: "page",
        label: "Page",
        secret: false,
        required: false,
        help: "The Page posts go to, by name or id; the first Page you give on Facebook's page when left empty.",
      },
    ],
  },
  settings: oauthSettings("https://graph.facebook.com", "https://www.facebook.com: its login dialog"),
  rules: NETWORK_RULES.facebook,
  // Meta limits a Page's calls by its engaged users (Business Use Case limits), and says so when hit;
  // a cap of 25 posts an hour per Page keeps a schedule well inside them.
  pacing: [{ count: 25, windowMs: 60 * 60_000 }],
} as const satisfies NetworkDescription<"facebook">;
