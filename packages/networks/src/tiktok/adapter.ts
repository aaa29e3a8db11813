import { NETWORK_RULES, type NetworkAdapter } from "@socialpub/core";
import {
  baseUrl,
  connectThroughOAuth,
  type OAuthAdapterOptions,
  oauthStepsConfig,
} from "../common/oauth-adapter.ts";
import type { TikTokApiConfig } from "./api.ts";
import { tiktokDescription } from "./describe.ts";
import { readTikTokMetrics } from "./metrics.ts";
import { TIKTOK_DEFAULT_SCOPES, tiktokOAuth } from "./oauth.ts";
import { publishTikTok } from "./publish.ts";
import { MIN_CHUNK_BYTES } from "./upload.ts";

export const TIKTOK_API_URL = "https://open.tiktokapis.com";
export const TIKTOK_AUTHORIZE_URL = "https://www.tiktok.com/v2/auth/authorize/";
/** The largest video this server fetches and uploads to TikTok (TikTok itself takes up to 4 GB). */
export const TIKTOK_MAX_MEDIA_BYTES = 256 * 1024 * 1024;

/**
 * `apiUrl` (https://open.tiktokapis.com) serves the API and its token endpoint; `clientId` is the app's
 * Client key.
 */
export interface TikTokAdapterOptions extends OAuthAdapterOptions {
  /** The authorize page (https://www.tiktok.com/v2/auth/authorize/; SOCIALPUB_TIKTOK_AUTH_URL). */
  authorizeUrl?: string;
  /** Whether TikTok has audited the app (SOCIALPUB_TIKTOK_AUDITED); unaudited apps post privately only. */
  audited?: boolean;
  /** Hosts verified in the app's settings that TikTok may pull media from (SOCIALPUB_TIKTOK_VERIFIED_DOMAINS). */
  verifiedDomains?: readonly string[];
  /** Preferred upload chunk size (5 MB by default, TikTok's smallest). */
  chunkBytes?: number;
  /** How long one attempt waits for a post TikTok is still processing (default 40 s). */
  processingWaitMs?: number;
}

/**
 * TikTok through the Content Posting API (Direct Post): a video uploaded in chunks, or pulled by TikTok
 * from a verified domain, or photos pulled from one, with the text as caption; posted private
 * (SELF_ONLY) until the app is audited. The publish_id is kept on the target, so a restart polls the
 * post it started rather than posting twice.
 *
 * There is no findPublished. TikTok's only way to read a creator's posts back, /v2/video/list/ (the
 * video.list scope), lists public videos once TikTok has processed and moderated them: a private
 * (SELF_ONLY) post, all an unaudited app may make, is never listed, and any post is missing while it is
 * processed or reviewed, so a post not listed may still have been made. An attempt that leaves no
 * publish_id behind with its answer lost (an init TikTok pulls the media for, or a server stopped
 * before the publish_id was saved) therefore fails as "outcome unknown" rather than posting again.
 */
export function tiktokAdapter(options: TikTokAdapterOptions = {}): NetworkAdapter {
  const api: TikTokApiConfig = {
    apiUrl: baseUrl(options.apiUrl, TIKTOK_API_URL),
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? Date.now,
  };
  const publish = {
    api,
    audited: options.audited ?? false,
    verifiedDomains: (options.verifiedDomains ?? []).map((d) => d.toLowerCase()),
    chunkBytes: options.chunkBytes ?? MIN_CHUNK_BYTES,
    waitMs: options.processingWaitMs ?? 40_000,
  };
  return {
    id: "tiktok",
    rule: NETWORK_RULES.tiktok,
    pacing: tiktokDescription.pacing,
    maxMediaBytes: TIKTOK_MAX_MEDIA_BYTES,
    connect: connectThroughOAuth("tiktok", "TikTok", "TikTok's own page"),
    oauth: tiktokOAuth({
      ...oauthStepsConfig(options, {
        authorizeUrl: options.authorizeUrl ?? TIKTOK_AUTHORIZE_URL,
        client: {
          network: "tiktok",
          name: "TikTok",
          tokenUrl: `${api.apiUrl}/v2/oauth/token/`,
          clientAuth: "form",
          clientIdField: "client_key",
        },
        defaultScopes: TIKTOK_DEFAULT_SCOPES,
        api,
      }),
      audited: publish.audited,
    }),
    publish: (account, post) => publishTikTok(publish, account, post),
    readMetrics: (account, post, signal) => readTikTokMetrics(api, account, post, signal),
  };
}
