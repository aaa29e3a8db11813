// What this network is, as data (../describe.ts): nothing here loads the adapter.
import { NETWORK_RULES } from "@socialpub/core";
import { type NetworkDescription, oauthSettings } from "../describe.ts";

export const YOUTUBE_DEFAULT_SCOPES = [
  "https://www.googleapis.com/auth/youtube.upload",
  "https://www.googleapis.com/auth/youtube.readonly",
  // The channel's first comment on its new video (commentThreads.insert).
  "https://www.googleapis.com/auth/youtube.force-ssl",
];

export const youtubeDescription = {
  id: "youtube",
  name: NETWORK_RULES.youtube.name,
  connect: {
    kind: "oauth",
    scopes: YOUTUBE_DEFAULT_SCOPES,
    pkce: true,
    page: "Google's own page",
    fields: [],
  },
  settings: [
    ...oauthSettings(
      "https://www.googleapis.com; set, it serves the token endpoint too, at /token",
      "https://accounts.google.com/o/oauth2/v2/auth",
    ),
    {
      name: "audited",
      option: "audited",
      kind: "boolean",
      about: "true once Google has audited the project (videos then upload public); unaudited by default",
    },
  ],
  rules: NETWORK_RULES.youtube,
  // YouTube's limit is the project's daily quota (an upload costs 1600 of 10,000 units), not a pace
  // per channel: a used-up quota answers quotaExceeded, and the video waits for midnight Pacific.
  pacing: [],
} as const satisfies NetworkDescription<"youtube">;
