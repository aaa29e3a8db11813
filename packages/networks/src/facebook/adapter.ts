import { NETWORK_RULES, type NetworkAdapter, NetworkError } from "@socialpub/core";
import { type FacebookApiConfig, GRAPH_VERSION } from "./api.ts";
import { FACEBOOK_DEFAULT_SCOPES, facebookOAuth } from "./oauth.ts";
import { FACEBOOK_MAX_IMAGE_BYTES, publishFacebook } from "./publish.ts";

export const FACEBOOK_API_URL = "https://graph.facebook.com";
/** Facebook's site, which serves the login dialog (/{version}/dialog/oauth). */
export const FACEBOOK_AUTH_URL = "https://www.facebook.com";

export interface FacebookAdapterOptions {
  /** The Graph API host (https://graph.facebook.com; SOCIALPUB_FACEBOOK_API_URL); the version is added. */
  apiUrl?: string;
  /** Facebook's site, for the login dialog (https://www.facebook.com; SOCIALPUB_FACEBOOK_AUTH_URL). */
  authUrl?: string;
  clientId?: string;
  clientSecret?: string;
  scopes?: readonly string[];
  /** The Graph API version (v23.0 by default). */
  version?: string;
  missingSettings?: readonly string[];
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * A Facebook Page through the Graph API with its Page token: text posts and photo posts. Facebook gives
 * no way to find a post by a key of ours: an attempt without an answer fails as "outcome unknown".
 */
export function facebookAdapter(options: FacebookAdapterOptions = {}): NetworkAdapter {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const version = options.version ?? GRAPH_VERSION;
  const host = (options.apiUrl ?? FACEBOOK_API_URL).replace(/\/+$/, "");
  const api: FacebookApiConfig = {
    graphUrl: `${host}/${version}`,
    fetch: fetchImpl,
    now: options.now ?? Date.now,
  };
  const authUrl = (options.authUrl ?? FACEBOOK_AUTH_URL).replace(/\/+$/, "");
  return {
    id: "facebook",
    rule: NETWORK_RULES.facebook,
    // Meta limits a Page's calls by its engaged users (Business Use Case limits), and says so when hit;
    // a cap of 25 posts an hour per Page keeps a schedule well inside them.
    pacing: [{ count: 25, windowMs: 60 * 60_000 }],
    maxMediaBytes: FACEBOOK_MAX_IMAGE_BYTES,
    async connect() {
      throw new NetworkError(
        "facebook",
        "refused",
        "Facebook connects through Facebook's own login dialog (OAuth).",
      );
    },
    oauth: facebookOAuth({
      authorizeUrl: `${authUrl}/${version}/dialog/oauth`,
      client: {
        network: "facebook",
        name: "Facebook",
        tokenUrl: `${api.graphUrl}/oauth/access_token`,
        clientId: options.clientId ?? "",
        clientSecret: options.clientSecret ?? "",
        clientAuth: "form",
        fetch: fetchImpl,
      },
      scopes: options.scopes ?? FACEBOOK_DEFAULT_SCOPES,
      missingSettings: options.missingSettings ?? [],
      api,
    }),
    publish: (account, post) => publishFacebook(api, account, post),
  };
}
