import { NETWORK_RULES, type NetworkAdapter } from "@socialpub/core";
import {
  baseUrl,
  connectThroughOAuth,
  type OAuthAdapterOptions,
  oauthStepsConfig,
} from "../common/oauth-adapter.ts";
import type { RedditApiConfig } from "./api.ts";
import { redditDescription } from "./describe.ts";
import { findRedditPost } from "./find-published.ts";
import { readRedditMetrics } from "./metrics.ts";
import { REDDIT_DEFAULT_SCOPES, redditOAuth } from "./oauth.ts";
import { publishReddit, REDDIT_MAX_IMAGE_BYTES } from "./publish.ts";

export const REDDIT_API_URL = "https://oauth.reddit.com";
/** Reddit's site: its authorize page and token endpoint live here, not on the API host. */
export const REDDIT_AUTHORIZE_URL = "https://www.reddit.com";

/** `apiUrl` defaults to https://oauth.reddit.com. */
export interface RedditAdapterOptions extends OAuthAdapterOptions {
  /**
   * Reddit's site, which serves the authorize page (/api/v1/authorize) and the token endpoint
   * (/api/v1/access_token): https://www.reddit.com; the server reads SOCIALPUB_REDDIT_AUTH_URL.
   */
  authorizeUrl?: string;
  /**
   * The descriptive User-Agent Reddit asks every app for, `<platform>:<app id>:<version> (by /u/<name>)`
   * (SOCIALPUB_REDDIT_USER_AGENT); by default one naming socialpub and the app's client id.
   */
  userAgent?: string;
}

export const defaultRedditUserAgent = (clientId: string) =>
  `server:socialpub:0.1.0 (self-hosted social publishing; app ${clientId || "unset"})`;

/**
 * Reddit through its OAuth API with the user's token: one post per publish to the subreddit chosen at
 * connect (or options.reddit.subreddit): text, link, image or gallery, with flair, nsfw and spoiler, and
 * a first comment as the account's reply. Reddit takes no key of ours for a post, so after an attempt whose answer was lost the
 * account's submitted posts are read back for one with the same title and body (find-published.ts).
 */
export function redditAdapter(options: RedditAdapterOptions = {}): NetworkAdapter {
  const userAgent = options.userAgent ?? defaultRedditUserAgent(options.clientId ?? "");
  const api: RedditApiConfig = {
    apiUrl: baseUrl(options.apiUrl, REDDIT_API_URL),
    userAgent,
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? Date.now,
  };
  const site = baseUrl(options.authorizeUrl, REDDIT_AUTHORIZE_URL);
  return {
    id: "reddit",
    rule: NETWORK_RULES.reddit,
    pacing: redditDescription.pacing,
    maxMediaBytes: REDDIT_MAX_IMAGE_BYTES,
    connect: connectThroughOAuth("reddit", "Reddit", "Reddit's own page"),
    oauth: redditOAuth(
      oauthStepsConfig(options, {
        authorizeUrl: `${site}/api/v1/authorize`,
        client: {
          network: "reddit",
          name: "Reddit",
          tokenUrl: `${site}/api/v1/access_token`,
          headers: { "user-agent": userAgent },
        },
        defaultScopes: REDDIT_DEFAULT_SCOPES,
        api,
      }),
    ),
    publish: (account, post) => publishReddit(api, account, post),
    findPublished: (account, lost, signal) => findRedditPost(api, account, lost, signal),
    readMetrics: (account, post, signal) => readRedditMetrics(api, account, post, signal),
  };
}
