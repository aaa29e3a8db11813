// Public surface of @socialpub/networks: the registry of networks (registry.ts), their descriptions
// (descriptions.ts, also the light `@socialpub/networks/descriptions` entry) and each adapter by
// itself; nothing runs at import time.
import type { NetworkAdapter, NetworkId } from "@socialpub/core";

/** Builds the adapters of the networks that publish for real, keyed by network id. */
export type AdapterRegistry = Partial<Record<NetworkId, NetworkAdapter>>;

export { type BlueskyAdapterOptions, blueskyAdapter } from "./bluesky/index.ts";
export * from "./descriptions.ts";
export { DISCORD_API_URL, type DiscordAdapterOptions, discordAdapter } from "./discord/adapter.ts";
export {
  FACEBOOK_API_URL,
  FACEBOOK_AUTHORIZE_URL,
  type FacebookAdapterOptions,
  facebookAdapter,
} from "./facebook/adapter.ts";
export { FACEBOOK_DEFAULT_SCOPES } from "./facebook/oauth.ts";
export {
  INSTAGRAM_API_URL,
  INSTAGRAM_AUTHORIZE_URL,
  INSTAGRAM_DEFAULT_SCOPES,
  type InstagramAdapterOptions,
  instagramAdapter,
} from "./instagram/adapter.ts";
export {
  LINKEDIN_API_URL,
  LINKEDIN_AUTHORIZE_URL,
  type LinkedInAdapterOptions,
  linkedinAdapter,
} from "./linkedin/adapter.ts";
export { LINKEDIN_DEFAULT_SCOPES } from "./linkedin/oauth.ts";
export {
  PINTEREST_API_URL,
  PINTEREST_AUTHORIZE_URL,
  type PinterestAdapterOptions,
  pinterestAdapter,
} from "./pinterest/adapter.ts";
export { PINTEREST_DEFAULT_SCOPES } from "./pinterest/oauth.ts";
export {
  defaultRedditUserAgent,
  REDDIT_API_URL,
  REDDIT_AUTHORIZE_URL,
  type RedditAdapterOptions,
  redditAdapter,
} from "./reddit/adapter.ts";
export { REDDIT_DEFAULT_SCOPES } from "./reddit/oauth.ts";
export { createAdapters, NETWORKS, type NetworkSettings } from "./registry.ts";
export { TELEGRAM_API_URL, type TelegramAdapterOptions, telegramAdapter } from "./telegram/adapter.ts";
export {
  THREADS_API_URL,
  THREADS_AUTHORIZE_URL,
  THREADS_DEFAULT_SCOPES,
  type ThreadsAdapterOptions,
  threadsAdapter,
} from "./threads/adapter.ts";
export {
  TIKTOK_API_URL,
  TIKTOK_AUTHORIZE_URL,
  type TikTokAdapterOptions,
  tiktokAdapter,
} from "./tiktok/adapter.ts";
export { TIKTOK_DEFAULT_SCOPES } from "./tiktok/oauth.ts";
export { X_API_URL, X_AUTHORIZE_URL, type XAdapterOptions, xAdapter } from "./x/adapter.ts";
export { findXDirect, publishXDirect, X_OAUTH1_FIELDS, type XOAuth1Credentials } from "./x/index.ts";
export { X_DEFAULT_SCOPES } from "./x/oauth.ts";
export {
  YOUTUBE_API_URL,
  YOUTUBE_AUTHORIZE_URL,
  type YouTubeAdapterOptions,
  youtubeAdapter,
} from "./youtube/adapter.ts";
export { YOUTUBE_DEFAULT_SCOPES } from "./youtube/oauth.ts";
