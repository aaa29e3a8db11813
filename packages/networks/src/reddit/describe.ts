// What this network is, as data (../describe.ts): nothing here loads the adapter.
import { NETWORK_RULES } from "@socialpub/core";
import { type NetworkDescription, oauthSettings } from "../describe.ts";

export const REDDIT_DEFAULT_SCOPES = ["identity", "read", "submit", "history"];

export const redditDescription = {
  id: "reddit",
  name: NETWORK_RULES.reddit.name,
  connect: {
    kind: "oauth",
    scopes: REDDIT_DEFAULT_SCOPES,
    pkce: false,
    page: "Reddit's own page",
    fields: [
      {
        name: "subreddit",
        label: "Subreddit",
        secret: false,
        required: false,
        placeholder: "r/name",
        help: "Where posts go; the account's own profile when left empty.",
      },
    ],
  },
  settings: [
    ...oauthSettings(
      "https://oauth.reddit.com",
      "https://www.reddit.com: its authorize page and token endpoint",
    ),
    {
      name: "user_agent",
      option: "userAgent",
      kind: "text",
      about:
        "the descriptive User-Agent Reddit asks for; by default one naming socialpub and the app's client id",
    },
  ],
  rules: NETWORK_RULES.reddit,
  // Reddit's OAuth limit is 100 queries a minute per client and an image post takes four: 25 posts.
  // Reddit also throttles posting per account and subreddit (RATELIMIT answers), honoured as it comes.
  pacing: [{ count: 25, windowMs: 60_000 }],
} as const satisfies NetworkDescription<"reddit">;
