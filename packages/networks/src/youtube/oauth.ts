import { type ConnectedAccount, NetworkError, type OAuthSteps } from "@socialpub/core";
import type { OAuthStepsConfig } from "../common/oauth-adapter.ts";
import { authorizeUrl, exchangeCode } from "../common/oauth-code.ts";
import { grantOf, refreshGrant } from "../common/oauth-token.ts";
import { type YouTubeApiConfig, youtubeGet } from "./api.ts";

export { YOUTUBE_DEFAULT_SCOPES } from "./describe.ts";

/**
 * What the server asks Google for: uploading videos, and reading the channel (its name and
 * subscribers at connect) and its videos' statistics (views, likes, comments).
 */

export interface YouTubeOAuthConfig extends OAuthStepsConfig<YouTubeApiConfig> {
  /** Whether Google has audited the app; unaudited, videos upload as private, and the handle says so. */
  audited: boolean;
}

/** What the handle adds while Google has not audited the app: the reason every video is private. */
export const UNAUDITED_NOTE = "videos upload as private until Google audits the app";

export interface YouTubeChannel {
  id: string;
  title: string;
  /** The channel's @handle, when it has one. */
  customUrl: string | null;
  subscribers: number;
}

/** The signed-in user's channel (channels.list?mine=true); null when the Google account has none. */
export async function readChannel(
  api: YouTubeApiConfig,
  token: string,
  signal: AbortSignal,
): Promise<YouTubeChannel | null> {
  const answer = await youtubeGet(
    api,
    token,
    "/channels",
    { part: "snippet,statistics", mine: "true" },
    signal,
  );
  const item = (Array.isArray(answer.items) ? answer.items[0] : undefined) as
    | {
        id?: unknown;
        snippet?: { title?: unknown; customUrl?: unknown };
        statistics?: { subscriberCount?: unknown; hiddenSubscriberCount?: unknown };
      }
    | undefined;
  if (!item || typeof item.id !== "string") return null;
  const stats = item.statistics ?? {};
  // Google gives counts as strings (int64); a hidden count is not reported.
  const subscribers = stats.hiddenSubscriberCount === true ? 0 : Number(stats.subscriberCount ?? 0) || 0;
  return {
    id: item.id,
    title: typeof item.snippet?.title === "string" ? item.snippet.title : item.id,
    customUrl: typeof item.snippet?.customUrl === "string" ? item.snippet.customUrl : null,
    subscribers,
  };
}

/** The account's handle: the channel's @handle (else its title), and why videos are private, when they are. */
export function channelHandle(channel: YouTubeChannel, audited: boolean): string {
  const name = channel.customUrl
    ? channel.customUrl.startsWith("@")
      ? channel.customUrl
      : `@${channel.customUrl}`
    : channel.title;
  return audited ? name : `${name} (${UNAUDITED_NOTE})`;
}

/**
 * Google's OAuth 2.0 for web server apps with PKCE S256: access_type=offline so Google gives a refresh
 * token, prompt=consent so it gives one again when the user connects again (Google only answers a
 * refresh token on a consent). The client id and secret go in the token request's form, as Google's
 * guide shows. Access tokens last an hour; Google usually does not answer a new refresh token on a
 * refresh, so the one held is kept then. A refresh token Google refuses (invalid_grant: revoked, unused
 * for six months, or the password changed with Gmail scopes) means connecting again.
 */
export function youtubeOAuth(config: YouTubeOAuthConfig): OAuthSteps {
  const { client, api } = config;
  return {
    missingSettings: config.missingSettings,
    pkce: true,
    authorizeUrl: (request) =>
      authorizeUrl(config, request, {
        pkce: true,
        extra: { access_type: "offline", prompt: "consent", include_granted_scopes: "true" },
      }),
    async exchange(request): Promise<ConnectedAccount> {
      const { signal } = request;
      const answer = await exchangeCode(client, request, { pkce: true });
      if (!answer.refresh_token) {
        // Without one the account would stop working within the hour, silently.
        throw new NetworkError(
          "youtube",
          "refused",
          "Google gave no refresh token, so the channel could not stay connected; remove the app's access at myaccount.google.com/permissions and connect again.",
        );
      }
      const channel = await readChannel(api, answer.access_token, signal);
      if (!channel) {
        throw new NetworkError(
          "youtube",
          "refused",
          "The Google account has no YouTube channel; create one on youtube.com, then connect again.",
        );
      }
      return {
        handle: channelHandle(channel, config.audited),
        followers: channel.subscribers,
        health: "healthy",
        credentials: { ...grantOf(answer, api.now()), channel_id: channel.id },
      };
    },
    // Google rarely rotates refresh tokens: without a new one, the one held stays good (refreshGrant).
    refresh: (credentials, signal) => refreshGrant(client, credentials, api.now, signal),
  };
}
