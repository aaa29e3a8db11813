import { NETWORK_RULES, type NetworkAdapter } from "@socialpub/core";
import {
  baseUrl,
  connectThroughOAuth,
  type OAuthAdapterOptions,
  oauthStepsConfig,
} from "../common/oauth-adapter.ts";
import { type FacebookApiConfig, GRAPH_VERSION } from "./api.ts";
import { facebookDescription } from "./describe.ts";
import { findFacebookPost } from "./find-published.ts";
import { publishFacebookRich } from "./first-comment.ts";
import { readFacebookMetrics } from "./metrics.ts";
import { FACEBOOK_DEFAULT_SCOPES, facebookOAuth } from "./oauth.ts";
import { FACEBOOK_MAX_VIDEO_BYTES } from "./video.ts";

export const FACEBOOK_API_URL = "https://graph.facebook.com";
/** Facebook's site, which serves the login dialog (/{version}/dialog/oauth). */
export const FACEBOOK_AUTHORIZE_URL = "https://www.facebook.com";

/** `apiUrl` is the Graph API host (https://graph.facebook.com); the version is added to it. */
export interface FacebookAdapterOptions extends OAuthAdapterOptions {
  /** Facebook's site, for the login dialog (https://www.facebook.com; SOCIALPUB_FACEBOOK_AUTH_URL). */
  authorizeUrl?: string;
  /** The Graph API version (v23.0 by default). */
  version?: string;
}

/**
 * A Facebook Page through the Graph API with its Page token: text, photo (with alt text), several-photo
 * and video posts, and the Page's first comment on the post (first-comment.ts). Facebook takes no key of
 * ours for a post, so after an attempt whose answer was lost the Page's recent posts are read back for
 * one with the same text (find-published.ts).
 */
export function facebookAdapter(options: FacebookAdapterOptions = {}): NetworkAdapter {
  const version = options.version ?? GRAPH_VERSION;
  const api: FacebookApiConfig = {
    graphUrl: `${baseUrl(options.apiUrl, FACEBOOK_API_URL)}/${version}`,
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? Date.now,
  };
  const site = baseUrl(options.authorizeUrl, FACEBOOK_AUTHORIZE_URL);
  return {
    id: "facebook",
    rule: NETWORK_RULES.facebook,
    pacing: facebookDescription.pacing,
    // The largest the server uploads (a video); photos are held to Facebook's 10 MB when posted.
    maxMediaBytes: FACEBOOK_MAX_VIDEO_BYTES,
    connect: connectThroughOAuth("facebook", "Facebook", "Facebook's own login dialog"),
    oauth: facebookOAuth(
      oauthStepsConfig(options, {
        authorizeUrl: `${site}/${version}/dialog/oauth`,
        client: {
          network: "facebook",
          name: "Facebook",
          tokenUrl: `${api.graphUrl}/oauth/access_token`,
          clientAuth: "form",
        },
        defaultScopes: FACEBOOK_DEFAULT_SCOPES,
        api,
      }),
    ),
    publish: (account, post) => publishFacebookRich(api, account, post),
    findPublished: (account, lost, signal) => findFacebookPost(api, account, lost, signal),
    readMetrics: (account, post, signal) => readFacebookMetrics(api, account, post, signal),
  };
}
