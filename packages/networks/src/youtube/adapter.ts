import { NETWORK_RULES, type NetworkAdapter } from "@socialpub/core";
import {
  baseUrl,
  connectThroughOAuth,
  type OAuthAdapterOptions,
  oauthStepsConfig,
} from "../common/oauth-adapter.ts";
import type { YouTubeApiConfig } from "./api.ts";
import { youtubeDescription } from "./describe.ts";
import { findVideo } from "./find-published.ts";
import { readVideoMetrics } from "./metrics.ts";
import { readChannel, YOUTUBE_DEFAULT_SCOPES, youtubeOAuth } from "./oauth.ts";
import { publishYouTube, YOUTUBE_MAX_VIDEO_BYTES } from "./publish.ts";
import { readToken } from "./read-token.ts";
import { CHUNK_UNIT, DEFAULT_CHUNK_BYTES } from "./upload.ts";

export const YOUTUBE_API_URL = "https://www.googleapis.com";
export const YOUTUBE_AUTHORIZE_URL = "https://accounts.google.com/o/oauth2/v2/auth";
export const YOUTUBE_TOKEN_URL = "https://oauth2.googleapis.com/token";

/**
 * `apiUrl` is the API's host (https://www.googleapis.com: /youtube/v3 and /upload/youtube/v3 under
 * it); when it is set, tokens are asked for at `${apiUrl}/token` too (a test fake serves both). The
 * client id and secret are a "Web application" OAuth client's, from the Google Cloud console.
 */
export interface YouTubeAdapterOptions extends OAuthAdapterOptions {
  /** Google's authorize page (https://accounts.google.com/o/oauth2/v2/auth; SOCIALPUB_YOUTUBE_AUTH_URL). */
  authorizeUrl?: string;
  /**
   * Whether Google has audited the project for the YouTube Data API (SOCIALPUB_YOUTUBE_AUDITED).
   * Until it has, YouTube locks every video an API project uploads to private; so this server uploads
   * them as private, and the account's handle says so. Default false.
   */
  audited?: boolean;
  /** What one upload request sends at most; a multiple of 256 KiB (default 8 MiB). */
  chunkBytes?: number;
}

/**
 * YouTube through the Data API v3 with the channel owner's Google grant: one video per post (with the
 * options' title, privacy, tags, category and made-for-kids, and a first comment by the channel),
 * uploaded through a resumable session kept on the target, so a restart resumes it and never uploads twice. An
 * attempt cut off before its session was saved is looked for among the channel's uploads
 * (findPublished, find-published.ts) before it is sent again.
 */
export function youtubeAdapter(options: YouTubeAdapterOptions = {}): NetworkAdapter {
  const api: YouTubeApiConfig = {
    apiUrl: baseUrl(options.apiUrl, YOUTUBE_API_URL),
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? Date.now,
  };
  const audited = options.audited ?? false;
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  if (!Number.isInteger(chunkBytes) || chunkBytes <= 0 || chunkBytes % CHUNK_UNIT !== 0) {
    throw new RangeError(`chunkBytes must be a positive multiple of ${CHUNK_UNIT} (256 KiB).`);
  }
  const oauth = youtubeOAuth({
    ...oauthStepsConfig(options, {
      authorizeUrl: options.authorizeUrl ?? YOUTUBE_AUTHORIZE_URL,
      client: {
        network: "youtube",
        name: "Google",
        tokenUrl: options.apiUrl ? `${api.apiUrl}/token` : YOUTUBE_TOKEN_URL,
        // Google's guide sends the client's id and secret in the form.
        clientAuth: "form",
      },
      defaultScopes: YOUTUBE_DEFAULT_SCOPES,
      api,
    }),
    audited,
  });
  return {
    id: "youtube",
    rule: NETWORK_RULES.youtube,
    pacing: youtubeDescription.pacing,
    maxMediaBytes: YOUTUBE_MAX_VIDEO_BYTES,
    connect: connectThroughOAuth("youtube", "YouTube", "Google's own page"),
    oauth,
    publish: (account, post) => publishYouTube(api, { audited, chunkBytes }, account, post),
    findPublished: (account, lost, signal) => findVideo(api, account, lost, signal),
    async readFollowers(account, signal) {
      const token = await readToken(account, oauth, api.now(), signal);
      const channel = await readChannel(api, token, signal);
      return channel?.subscribers ?? 0;
    },
    readMetrics: (account, post, signal) => readVideoMetrics(api, account, post.id, signal),
  };
}
