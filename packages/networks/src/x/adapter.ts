import { NETWORK_RULES, type NetworkAdapter } from "@socialpub/core";
import {
  baseUrl,
  connectThroughOAuth,
  type OAuthAdapterOptions,
  oauthStepsConfig,
} from "../common/oauth-adapter.ts";
import type { XApiConfig } from "./api.ts";
import { X_DEFAULT_SCOPES, xOAuth } from "./oauth.ts";
import { publishX, X_MAX_IMAGE_BYTES } from "./publish.ts";

export const X_API_URL = "https://api.x.com";
export const X_AUTHORIZE_URL = "https://x.com/i/oauth2/authorize";

/** `apiUrl` defaults to https://api.x.com; the client id and secret come from X's developer console. */
export interface XAdapterOptions extends OAuthAdapterOptions {
  /** The authorize page (https://x.com/i/oauth2/authorize; the server reads SOCIALPUB_X_AUTH_URL). */
  authorizeUrl?: string;
}

/**
 * X through the API v2 with the user's OAuth 2.0 token (authorization code with PKCE). Posts text with
 * up to four images. X has no way to look a post up by a key of ours, so there is no findPublished: an
 * attempt without an answer fails as "outcome unknown" rather than posting twice.
 */
export function xAdapter(options: XAdapterOptions = {}): NetworkAdapter {
  const api: XApiConfig = {
    apiUrl: baseUrl(options.apiUrl, X_API_URL),
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? Date.now,
  };
  return {
    id: "x",
    rule: NETWORK_RULES.x,
    // X's documented limit on creating posts with a user token: 100 per 15 minutes per user.
    pacing: [{ count: 100, windowMs: 15 * 60_000 }],
    maxMediaBytes: X_MAX_IMAGE_BYTES,
    connect: connectThroughOAuth("x", "X", "X's own page"),
    oauth: xOAuth(
      oauthStepsConfig(options, {
        authorizeUrl: options.authorizeUrl ?? X_AUTHORIZE_URL,
        client: { network: "x", name: "X", tokenUrl: `${api.apiUrl}/2/oauth2/token` },
        defaultScopes: X_DEFAULT_SCOPES,
        api,
      }),
    ),
    publish: (account, post) => publishX(api, account, post),
  };
}
