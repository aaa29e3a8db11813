// What this network is, as data (../describe.ts): nothing here loads the adapter.
import { NETWORK_RULES } from "@socialpub/core";
import { type NetworkDescription, oauthSettings } from "../describe.ts";

/** Reading who the creator is, and posting videos to their profile (Direct Post). */
export const TIKTOK_DEFAULT_SCOPES = ["user.info.basic", "video.publish"];

export const tiktokDescription = {
  id: "tiktok",
  name: NETWORK_RULES.tiktok.name,
  connect: {
    kind: "oauth",
    scopes: TIKTOK_DEFAULT_SCOPES,
    pkce: false,
    page: "TikTok's own page",
    fields: [],
  },
  settings: [
    ...oauthSettings(
      "https://open.tiktokapis.com: the API and its token endpoint",
      "https://www.tiktok.com/v2/auth/authorize/",
    ),
    {
      name: "audited",
      option: "audited",
      kind: "boolean",
      about: "true once TikTok has audited the app (posts are then public); unaudited by default",
    },
    {
      name: "verified_domains",
      option: "verifiedDomains",
      kind: "list",
      about: "the domains verified with TikTok, from which it pulls media by URL",
    },
  ],
  rules: NETWORK_RULES.tiktok,
  // TikTok's limit on starting posts: 6 inits a minute per access token.
  pacing: [{ count: 6, windowMs: 60_000 }],
} as const satisfies NetworkDescription<"tiktok">;
