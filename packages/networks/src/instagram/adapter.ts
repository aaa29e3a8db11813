import { NETWORK_RULES, type NetworkAdapter } from "@socialpub/core";
import type { MetaGraphConfig } from "../common/meta-graph.ts";
import { readMetaInsights } from "../common/meta-insights.ts";
import { metaMe, metaOAuth } from "../common/meta-oauth.ts";
import { findLostMetaPost } from "../common/meta-recent.ts";
import { baseUrl, connectThroughOAuth, type OAuthAdapterOptions } from "../common/oauth-adapter.ts";
import { INSTAGRAM_DEFAULT_SCOPES, instagramDescription } from "./describe.ts";
import { INSTAGRAM_MAX_MEDIA_BYTES, instagramListing, publishInstagram } from "./publish.ts";

export { INSTAGRAM_DEFAULT_SCOPES } from "./describe.ts";

export const INSTAGRAM_API_URL = "https://graph.instagram.com";
/** Where the code is traded: Instagram's login host, not the Graph API's. */
export const INSTAGRAM_TOKEN_URL = "https://api.instagram.com/oauth/access_token";
export const INSTAGRAM_AUTHORIZE_URL = "https://www.instagram.com/oauth/authorize";
export const INSTAGRAM_API_VERSION = "v23.0";
/** Lifetime insights of an Instagram post, as the figures a target keeps. */
const INSTAGRAM_METRICS = ["reach", "likes", "comments", "shares"] as const;

/**
 * `apiUrl` is the Graph API's host (https://graph.instagram.com); when it is set, the code is traded at
 * `${apiUrl}/oauth/access_token` too (a test fake serves both). The client is the Instagram app (Meta's
 * console, "Instagram API with Instagram Login").
 */
export interface InstagramAdapterOptions extends OAuthAdapterOptions {
  /** The authorize page (https://www.instagram.com/oauth/authorize; SOCIALPUB_INSTAGRAM_AUTH_URL). */
  authorizeUrl?: string;
  /** How long one attempt waits for a media container Instagram is still processing (default 40 s). */
  containerWaitMs?: number;
}

/**
 * Instagram professional accounts through the Instagram API with Instagram Login: an image (with its
 * alt text), a reel (video), or a carousel of 2–10 images and videos, that Instagram fetches from the
 * post's public media URLs, with the text as caption; the first comment on the published media; published
 * in two steps (container, polled until FINISHED, then media_publish) whose progress is kept on the
 * target so a restart never posts twice. An attempt cut off before its container was saved is looked
 * for among the account's recent media (findPublished, common/meta-recent.ts) before it is sent again.
 */
export function instagramAdapter(options: InstagramAdapterOptions = {}): NetworkAdapter {
  const host = baseUrl(options.apiUrl, INSTAGRAM_API_URL);
  const graph: MetaGraphConfig = {
    network: "instagram",
    name: "Instagram",
    baseUrl: `${host}/${INSTAGRAM_API_VERSION}`,
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? Date.now,
  };
  return {
    id: "instagram",
    rule: NETWORK_RULES.instagram,
    pacing: instagramDescription.pacing,
    maxMediaBytes: INSTAGRAM_MAX_MEDIA_BYTES,
    connect: connectThroughOAuth("instagram", "Instagram", "Instagram's own page"),
    oauth: metaOAuth({
      graph,
      authorizeUrl: options.authorizeUrl ?? INSTAGRAM_AUTHORIZE_URL,
      tokenUrl: options.apiUrl ? `${host}/oauth/access_token` : INSTAGRAM_TOKEN_URL,
      longLivedUrl: `${host}/access_token`,
      longLivedGrant: "ig_exchange_token",
      clientId: options.clientId ?? "",
      clientSecret: options.clientSecret ?? "",
      scopes: options.scopes ?? INSTAGRAM_DEFAULT_SCOPES,
      missingSettings: options.missingSettings ?? [],
      async me(token, signal) {
        const me = await metaMe(graph, token, "user_id,username,followers_count", signal);
        return {
          id: String(me.user_id ?? me.id),
          username: String(me.username),
          followers: typeof me.followers_count === "number" ? me.followers_count : 0,
        };
      },
    }),
    publish: (account, post) => publishInstagram(graph, account, post, options.containerWaitMs),
    findPublished: (account, lost, signal) =>
      findLostMetaPost(graph, instagramListing, account, lost, signal),
    async readMetrics(account, post, signal) {
      const m = await readMetaInsights(graph, account, post, INSTAGRAM_METRICS, signal);
      return { reach: m.reach, likes: m.likes, comments: m.comments, shares: m.shares };
    },
  };
}
