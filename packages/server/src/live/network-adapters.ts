import type { NetworkAdapters } from "@socialpub/core";
import {
  blueskyAdapter,
  discordAdapter,
  facebookAdapter,
  instagramAdapter,
  linkedinAdapter,
  pinterestAdapter,
  redditAdapter,
  telegramAdapter,
  threadsAdapter,
  tiktokAdapter,
  xAdapter,
  youtubeAdapter,
} from "@socialpub/networks";
import { CliError } from "../cli/errors.ts";
import { type OAuthAppSettings, oauthAppSettings } from "./oauth-settings.ts";

/**
 * Where the live adapters send their requests. Each network's API can be pointed elsewhere (a test
 * peer, a compatible self-hosted service); unset, each goes to the network itself.
 */
export interface NetworkAddresses {
  /** SOCIALPUB_BLUESKY_SERVICE_URL: the PDS a connect without `service` logs in to (https://bsky.social). */
  blueskyService?: string | undefined;
  /** SOCIALPUB_TELEGRAM_API_URL (https://api.telegram.org). */
  telegramApi?: string | undefined;
  /** SOCIALPUB_DISCORD_API_URL (https://discord.com): Discord webhook URLs must be on its host. */
  discordApi?: string | undefined;
  /** SOCIALPUB_X_API_URL (https://api.x.com: the API and its token endpoint). */
  xApi?: string | undefined;
  /** SOCIALPUB_X_AUTH_URL (https://x.com/i/oauth2/authorize: the page where users grant access). */
  xAuth?: string | undefined;
  /** SOCIALPUB_X_CLIENT_ID, SOCIALPUB_X_CLIENT_SECRET, SOCIALPUB_X_SCOPES. */
  xApp?: OAuthAppSettings;
  /** SOCIALPUB_PINTEREST_API_URL (https://api.pinterest.com; trial access: https://api-sandbox.pinterest.com). */
  pinterestApi?: string | undefined;
  /** SOCIALPUB_PINTEREST_AUTH_URL (https://www.pinterest.com/oauth/). */
  pinterestAuth?: string | undefined;
  /** SOCIALPUB_PINTEREST_CLIENT_ID, SOCIALPUB_PINTEREST_CLIENT_SECRET, SOCIALPUB_PINTEREST_SCOPES. */
  pinterestApp?: OAuthAppSettings;
  /** SOCIALPUB_REDDIT_API_URL (https://oauth.reddit.com). */
  redditApi?: string | undefined;
  /** SOCIALPUB_REDDIT_AUTH_URL (https://www.reddit.com: its authorize page and token endpoint). */
  redditAuth?: string | undefined;
  /** SOCIALPUB_REDDIT_USER_AGENT: the descriptive User-Agent Reddit asks for. */
  redditUserAgent?: string | undefined;
  /** SOCIALPUB_REDDIT_CLIENT_ID, SOCIALPUB_REDDIT_CLIENT_SECRET, SOCIALPUB_REDDIT_SCOPES. */
  redditApp?: OAuthAppSettings;
  /** SOCIALPUB_LINKEDIN_API_URL (https://api.linkedin.com). */
  linkedinApi?: string | undefined;
  /** SOCIALPUB_LINKEDIN_AUTH_URL (https://www.linkedin.com: its authorize page and token endpoint). */
  linkedinAuth?: string | undefined;
  /** SOCIALPUB_LINKEDIN_CLIENT_ID, SOCIALPUB_LINKEDIN_CLIENT_SECRET, SOCIALPUB_LINKEDIN_SCOPES. */
  linkedinApp?: OAuthAppSettings;
  /** SOCIALPUB_FACEBOOK_API_URL (https://graph.facebook.com). */
  facebookApi?: string | undefined;
  /** SOCIALPUB_FACEBOOK_AUTH_URL (https://www.facebook.com: its login dialog). */
  facebookAuth?: string | undefined;
  /** SOCIALPUB_FACEBOOK_CLIENT_ID, SOCIALPUB_FACEBOOK_CLIENT_SECRET, SOCIALPUB_FACEBOOK_SCOPES. */
  facebookApp?: OAuthAppSettings;
  /** SOCIALPUB_THREADS_API_URL (https://graph.threads.net: the Graph API and its token endpoints). */
  threadsApi?: string | undefined;
  /** SOCIALPUB_THREADS_AUTH_URL (https://threads.net/oauth/authorize). */
  threadsAuth?: string | undefined;
  /** SOCIALPUB_THREADS_CLIENT_ID, SOCIALPUB_THREADS_CLIENT_SECRET, SOCIALPUB_THREADS_SCOPES. */
  threadsApp?: OAuthAppSettings;
  /** SOCIALPUB_INSTAGRAM_API_URL (https://graph.instagram.com; set, it serves the code exchange too). */
  instagramApi?: string | undefined;
  /** SOCIALPUB_INSTAGRAM_AUTH_URL (https://www.instagram.com/oauth/authorize). */
  instagramAuth?: string | undefined;
  /** SOCIALPUB_INSTAGRAM_CLIENT_ID, SOCIALPUB_INSTAGRAM_CLIENT_SECRET, SOCIALPUB_INSTAGRAM_SCOPES. */
  instagramApp?: OAuthAppSettings;
  /** SOCIALPUB_TIKTOK_API_URL (https://open.tiktokapis.com: the API and its token endpoint). */
  tiktokApi?: string | undefined;
  /** SOCIALPUB_TIKTOK_AUTH_URL (https://www.tiktok.com/v2/auth/authorize/). */
  tiktokAuth?: string | undefined;
  /** SOCIALPUB_TIKTOK_CLIENT_ID (the Client key), SOCIALPUB_TIKTOK_CLIENT_SECRET, SOCIALPUB_TIKTOK_SCOPES. */
  tiktokApp?: OAuthAppSettings;
  /** SOCIALPUB_TIKTOK_AUDITED and SOCIALPUB_TIKTOK_VERIFIED_DOMAINS: what TikTok lets the app do. */
  tiktokPosting?: TikTokPosting;
  /** SOCIALPUB_YOUTUBE_API_URL (https://www.googleapis.com; set, it serves the token endpoint too, at /token). */
  youtubeApi?: string | undefined;
  /** SOCIALPUB_YOUTUBE_AUTH_URL (https://accounts.google.com/o/oauth2/v2/auth). */
  youtubeAuth?: string | undefined;
  /** SOCIALPUB_YOUTUBE_CLIENT_ID, SOCIALPUB_YOUTUBE_CLIENT_SECRET, SOCIALPUB_YOUTUBE_SCOPES. */
  youtubeApp?: OAuthAppSettings;
  /** SOCIALPUB_YOUTUBE_AUDITED: whether Google has audited the project (videos then upload public). */
  youtubeAudited?: boolean;
}

/** What TikTok lets this server's app do: post publicly once audited, pull media from verified domains. */
export interface TikTokPosting {
  audited: boolean;
  verifiedDomains: string[];
}

/**
 * The adapters live keys publish through: Bluesky, Telegram and Discord, which connect with credentials
 * a user pastes, and X, Pinterest, Reddit, LinkedIn, Facebook, Threads, Instagram, TikTok and YouTube, which connect through OAuth once the
 * server has their apps' settings.
 */
export function networkAdapters(addresses: NetworkAddresses = {}): NetworkAdapters {
  return {
    bluesky: blueskyAdapter({
      ...(addresses.blueskyService && { defaultService: addresses.blueskyService }),
    }),
    telegram: telegramAdapter({ ...(addresses.telegramApi && { apiUrl: addresses.telegramApi }) }),
    discord: discordAdapter({ ...(addresses.discordApi && { apiUrl: addresses.discordApi }) }),
    x: xAdapter({
      ...(addresses.xApi && { apiUrl: addresses.xApi }),
      ...(addresses.xAuth && { authorizeUrl: addresses.xAuth }),
      ...(addresses.xApp ?? { missingSettings: ["SOCIALPUB_X_CLIENT_ID", "SOCIALPUB_X_CLIENT_SECRET"] }),
    }),
    pinterest: pinterestAdapter({
      ...(addresses.pinterestApi && { apiUrl: addresses.pinterestApi }),
      ...(addresses.pinterestAuth && { authorizeUrl: addresses.pinterestAuth }),
      ...(addresses.pinterestApp ?? {
        missingSettings: ["SOCIALPUB_PINTEREST_CLIENT_ID", "SOCIALPUB_PINTEREST_CLIENT_SECRET"],
      }),
    }),
    reddit: redditAdapter({
      ...(addresses.redditApi && { apiUrl: addresses.redditApi }),
      ...(addresses.redditAuth && { authUrl: addresses.redditAuth }),
      ...(addresses.redditUserAgent && { userAgent: addresses.redditUserAgent }),
      ...(addresses.redditApp ?? {
        missingSettings: ["SOCIALPUB_REDDIT_CLIENT_ID", "SOCIALPUB_REDDIT_CLIENT_SECRET"],
      }),
    }),
    linkedin: linkedinAdapter({
      ...(addresses.linkedinApi && { apiUrl: addresses.linkedinApi }),
      ...(addresses.linkedinAuth && { authUrl: addresses.linkedinAuth }),
      ...(addresses.linkedinApp ?? {
        missingSettings: ["SOCIALPUB_LINKEDIN_CLIENT_ID", "SOCIALPUB_LINKEDIN_CLIENT_SECRET"],
      }),
    }),
    facebook: facebookAdapter({
      ...(addresses.facebookApi && { apiUrl: addresses.facebookApi }),
      ...(addresses.facebookAuth && { authUrl: addresses.facebookAuth }),
      ...(addresses.facebookApp ?? {
        missingSettings: ["SOCIALPUB_FACEBOOK_CLIENT_ID", "SOCIALPUB_FACEBOOK_CLIENT_SECRET"],
      }),
    }),
    instagram: instagramAdapter({
      ...(addresses.instagramApi && { apiUrl: addresses.instagramApi }),
      ...(addresses.instagramAuth && { authorizeUrl: addresses.instagramAuth }),
      ...(addresses.instagramApp ?? {
        missingSettings: ["SOCIALPUB_INSTAGRAM_CLIENT_ID", "SOCIALPUB_INSTAGRAM_CLIENT_SECRET"],
      }),
    }),
    tiktok: tiktokAdapter({
      ...(addresses.tiktokApi && { apiUrl: addresses.tiktokApi }),
      ...(addresses.tiktokAuth && { authorizeUrl: addresses.tiktokAuth }),
      ...addresses.tiktokPosting,
      ...(addresses.tiktokApp ?? {
        missingSettings: ["SOCIALPUB_TIKTOK_CLIENT_ID", "SOCIALPUB_TIKTOK_CLIENT_SECRET"],
      }),
    }),
    threads: threadsAdapter({
      ...(addresses.threadsApi && { apiUrl: addresses.threadsApi }),
      ...(addresses.threadsAuth && { authorizeUrl: addresses.threadsAuth }),
      ...(addresses.threadsApp ?? {
        missingSettings: ["SOCIALPUB_THREADS_CLIENT_ID", "SOCIALPUB_THREADS_CLIENT_SECRET"],
      }),
    }),
    youtube: youtubeAdapter({
      ...(addresses.youtubeApi && { apiUrl: addresses.youtubeApi }),
      ...(addresses.youtubeAuth && { authorizeUrl: addresses.youtubeAuth }),
      ...(addresses.youtubeApp ?? {
        missingSettings: ["SOCIALPUB_YOUTUBE_CLIENT_ID", "SOCIALPUB_YOUTUBE_CLIENT_SECRET"],
      }),
      audited: addresses.youtubeAudited ?? false,
    }),
  };
}

/** The addresses as the environment sets them. */
export function networkAddressesFromEnv(env: NodeJS.ProcessEnv = process.env): NetworkAddresses {
  return {
    blueskyService: env.SOCIALPUB_BLUESKY_SERVICE_URL || undefined,
    telegramApi: env.SOCIALPUB_TELEGRAM_API_URL || undefined,
    discordApi: env.SOCIALPUB_DISCORD_API_URL || undefined,
    xApi: env.SOCIALPUB_X_API_URL || undefined,
    xAuth: env.SOCIALPUB_X_AUTH_URL || undefined,
    xApp: oauthAppSettings("x", env),
    pinterestApi: env.SOCIALPUB_PINTEREST_API_URL || undefined,
    pinterestAuth: env.SOCIALPUB_PINTEREST_AUTH_URL || undefined,
    pinterestApp: oauthAppSettings("pinterest", env),
    redditApi: env.SOCIALPUB_REDDIT_API_URL || undefined,
    redditAuth: env.SOCIALPUB_REDDIT_AUTH_URL || undefined,
    redditUserAgent: env.SOCIALPUB_REDDIT_USER_AGENT?.trim() || undefined,
    redditApp: oauthAppSettings("reddit", env),
    linkedinApi: env.SOCIALPUB_LINKEDIN_API_URL || undefined,
    linkedinAuth: env.SOCIALPUB_LINKEDIN_AUTH_URL || undefined,
    linkedinApp: oauthAppSettings("linkedin", env),
    facebookApi: env.SOCIALPUB_FACEBOOK_API_URL || undefined,
    facebookAuth: env.SOCIALPUB_FACEBOOK_AUTH_URL || undefined,
    facebookApp: oauthAppSettings("facebook", env),
    threadsApi: env.SOCIALPUB_THREADS_API_URL || undefined,
    threadsAuth: env.SOCIALPUB_THREADS_AUTH_URL || undefined,
    threadsApp: oauthAppSettings("threads", env),
    instagramApi: env.SOCIALPUB_INSTAGRAM_API_URL || undefined,
    instagramAuth: env.SOCIALPUB_INSTAGRAM_AUTH_URL || undefined,
    instagramApp: oauthAppSettings("instagram", env),
    tiktokApi: env.SOCIALPUB_TIKTOK_API_URL || undefined,
    tiktokAuth: env.SOCIALPUB_TIKTOK_AUTH_URL || undefined,
    tiktokApp: oauthAppSettings("tiktok", env),
    tiktokPosting: {
      // Unaudited unless said otherwise: TikTok refuses public posts from an app it has not audited.
      audited: /^(1|true|yes|on)$/i.test(env.SOCIALPUB_TIKTOK_AUDITED?.trim() ?? ""),
      verifiedDomains: (env.SOCIALPUB_TIKTOK_VERIFIED_DOMAINS ?? "").split(/[\s,]+/).filter(Boolean),
    },
    youtubeApi: env.SOCIALPUB_YOUTUBE_API_URL || undefined,
    youtubeAuth: env.SOCIALPUB_YOUTUBE_AUTH_URL || undefined,
    youtubeApp: oauthAppSettings("youtube", env),
    youtubeAudited: auditedSetting(env.SOCIALPUB_YOUTUBE_AUDITED),
  };
}

/**
 * SOCIALPUB_YOUTUBE_AUDITED: true once Google has audited the project for the YouTube Data API.
 * Unset or false, videos upload as private (all YouTube allows an unaudited project). Anything else is
 * refused rather than guessed, since a wrong guess either fails every upload or makes videos public.
 */
function auditedSetting(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase() ?? "";
  if (v === "" || v === "false" || v === "0" || v === "no" || v === "off") return false;
  if (v === "true" || v === "1" || v === "yes" || v === "on") return true;
  throw new CliError(
    "SOCIALPUB_YOUTUBE_AUDITED must be true or false (true only once Google has audited the project); leave it unset for an unaudited project.",
  );
}
