import { NETWORK_RULES, type NetworkAdapter, NetworkError } from "@socialpub/core";
import type { RedditApiConfig } from "./api.ts";
import { REDDIT_DEFAULT_SCOPES, redditOAuth } from "./oauth.ts";
import { publishReddit, REDDIT_MAX_IMAGE_BYTES } from "./publish.ts";

export const REDDIT_API_URL = "https://oauth.reddit.com";
/** Reddit's site: its authorize page and token endpoint live here, not on the API host. */
export const REDDIT_AUTH_URL = "https://www.reddit.com";

export interface RedditAdapterOptions {
  /** The API (https://oauth.reddit.com; the server reads SOCIALPUB_REDDIT_API_URL). */
  apiUrl?: string;
  /**
   * Reddit's site, which serves the authorize page (/api/v1/authorize) and the token endpoint
   * (/api/v1/access_token): https://www.reddit.com; the server reads SOCIALPUB_REDDIT_AUTH_URL.
   */
  authUrl?: string;
  clientId?: string;
  clientSecret?: string;
  scopes?: readonly string[];
  /**
   * The descriptive User-Agent Reddit asks every app for, `<platform>:<app id>:<version> (by /u/<name>)`
   * (SOCIALPUB_REDDIT_USER_AGENT); by default one naming socialpub and the app's client id.
   */
  userAgent?: string;
  missingSettings?: readonly string[];
  fetch?: typeof fetch;
  now?: () => number;
}

export const defaultRedditUserAgent = (clientId: string) =>
  `server:socialpub:0.1.0 (self-hosted social publishing; app ${clientId || "unset"})`;

/**
 * Reddit through its OAuth API with the user's token: one post per publish to the subreddit chosen at
 * connect. No findPublished for text posts (Reddit has no key of ours to look for): an attempt without
 * an answer fails as "outcome unknown" rather than posting twice.
 */
export function redditAdapter(options: RedditAdapterOptions = {}): NetworkAdapter {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const clientId = options.clientId ?? "";
  const userAgent = options.userAgent ?? defaultRedditUserAgent(clientId);
  const api: RedditApiConfig = {
    apiUrl: (options.apiUrl ?? REDDIT_API_URL).replace(/\/+$/, ""),
    userAgent,
    fetch: fetchImpl,
    now: options.now ?? Date.now,
  };
  const authUrl = (options.authUrl ?? REDDIT_AUTH_URL).replace(/\/+$/, "");
  return {
    id: "reddit",
    rule: NETWORK_RULES.reddit,
    // Reddit's OAuth limit is 100 queries a minute per client and an image post takes four: 25 posts.
    // Reddit also throttles posting per account and subreddit (RATELIMIT answers), honoured as it comes.
    pacing: [{ count: 25, windowMs: 60_000 }],
    maxMediaBytes: REDDIT_MAX_IMAGE_BYTES,
    async connect() {
      throw new NetworkError("reddit", "refused", "Reddit connects through Reddit's own page (OAuth).");
    },
    oauth: redditOAuth({
      authorizeUrl: `${authUrl}/api/v1/authorize`,
      client: {
        network: "reddit",
        name: "Reddit",
        tokenUrl: `${authUrl}/api/v1/access_token`,
        clientId,
        clientSecret: options.clientSecret ?? "",
        headers: { "user-agent": userAgent },
        fetch: fetchImpl,
      },
      scopes: options.scopes ?? REDDIT_DEFAULT_SCOPES,
      missingSettings: options.missingSettings ?? [],
      api,
    }),
    publish: (account, post) => publishReddit(api, account, post),
  };
}
