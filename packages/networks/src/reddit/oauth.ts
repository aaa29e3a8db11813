import { type ConnectedAccount, NetworkError, type OAuthSteps } from "@socialpub/core";
import type { OAuthStepsConfig } from "../common/oauth-adapter.ts";
import { authorizeUrl, exchangeCode } from "../common/oauth-code.ts";
import { grantOf, refreshGrant } from "../common/oauth-token.ts";
import { type RedditApiConfig, redditCall } from "./api.ts";

export { REDDIT_DEFAULT_SCOPES } from "./describe.ts";

/**
 * What the server asks Reddit for: who the account is, reading a subreddit's rules, submitting, and
 * reading the account's own posts back (history: finding an image post just made, and the post of an
 * attempt whose answer was lost).
 */
/** A subreddit's name as Reddit allows it (3–21 letters, digits, underscores), or a profile u_name. */
const SUBREDDIT = /^(?:r\/)?([A-Za-z0-9][A-Za-z0-9_]{1,20}|u_[A-Za-z0-9_-]{3,20})$/;

export type RedditOAuthConfig = OAuthStepsConfig<RedditApiConfig>;

interface MeAnswer {
  name?: string;
  total_karma?: number;
}

interface AboutAnswer {
  kind?: string;
  data?: { display_name?: string; submission_type?: string; subscribers?: number };
}

/**
 * Reddit's OAuth 2.0 authorization code flow for a web app (no PKCE; the client secret proves the app),
 * with duration=permanent so Reddit gives a refresh token. Access tokens last an hour; the refresh token
 * does not rotate. The subreddit posts go to is chosen at connect (`subreddit`), the user's own profile
 * (u_name) when left out, and checked to exist when the user comes back.
 */
export function redditOAuth(config: RedditOAuthConfig): OAuthSteps {
  const { client, api } = config;
  return {
    missingSettings: config.missingSettings,
    pkce: false,
    startFields(fields): Record<string, string> {
      const subreddit = fields.subreddit;
      if (subreddit === undefined) return {};
      const match = typeof subreddit === "string" ? SUBREDDIT.exec(subreddit.trim()) : null;
      if (!match) {
        throw new NetworkError(
          "reddit",
          "refused",
          "subreddit must be a subreddit's name (like socialpub or r/socialpub); leave it out to post to the account's own profile.",
        );
      }
      return { subreddit: match[1]! };
    },
    // permanent: Reddit answers a refresh token only for permanent grants.
    authorizeUrl: (request) => authorizeUrl(config, request, { extra: { duration: "permanent" } }),
    async exchange(request): Promise<ConnectedAccount> {
      const { fields, signal } = request;
      const answer = await exchangeCode(client, request);
      const token = answer.access_token;
      const me = (await redditCall(api, token, "GET", "/api/v1/me", null, signal, true)) as MeAnswer;
      const username = me.name ?? "reddit";
      const subreddit = fields.subreddit ?? `u_${username}`;
      const about = await aboutSubreddit(api, token, subreddit, signal);
      return {
        handle: `u/${username} in r/${about.name}`,
        followers: about.subscribers,
        health: "healthy",
        credentials: {
          ...grantOf(answer, api.now()),
          username,
          subreddit: about.name,
          submission_type: about.submissionType,
        },
      };
    },
    refresh: (credentials, signal) => refreshGrant(client, credentials, api.now, signal),
  };
}

async function aboutSubreddit(
  api: RedditApiConfig,
  token: string,
  name: string,
  signal: AbortSignal,
): Promise<{ name: string; submissionType: string; subscribers: number }> {
  let about: AboutAnswer;
  try {
    about = (await redditCall(api, token, "GET", `/r/${name}/about`, null, signal, true)) as AboutAnswer;
  } catch (err) {
    if (err instanceof NetworkError && (err.status === 404 || err.status === 403)) {
      throw new NetworkError(
        "reddit",
        "refused",
        `Reddit has no subreddit r/${name} this account can post to (it does not exist, is private, or banned); connect again with another subreddit.`,
        { status: err.status },
      );
    }
    throw err;
  }
  if (about.kind !== "t5" || !about.data?.display_name) {
    throw new NetworkError(
      "reddit",
      "refused",
      `Reddit has no subreddit r/${name}; connect again with another subreddit.`,
    );
  }
  return {
    name: about.data.display_name,
    submissionType: about.data.submission_type ?? "any",
    subscribers: about.data.subscribers ?? 0,
  };
}
