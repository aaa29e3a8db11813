import { NETWORK_RULES, type NetworkAdapter, NetworkError } from "@socialpub/core";
import type { XApiConfig } from "./api.ts";
import { X_DEFAULT_SCOPES, xOAuth } from "./oauth.ts";
import { publishX, X_MAX_IMAGE_BYTES } from "./publish.ts";

export const X_API_URL = "https://api.x.com";
export const X_AUTHORIZE_URL = "https://x.com/i/oauth2/authorize";

export interface XAdapterOptions {
  /** The API's base URL (https://api.x.com; the server reads SOCIALPUB_X_API_URL). */
  apiUrl?: string;
  /** The authorize page (https://x.com/i/oauth2/authorize; the server reads SOCIALPUB_X_AUTH_URL). */
  authorizeUrl?: string;
  /** The app's OAuth 2.0 client id and secret, from X's developer console. */
  clientId?: string;
  clientSecret?: string;
  scopes?: readonly string[];
  /** The settings the server lacks (named in the 400 a connect answers); empty when configured. */
  missingSettings?: readonly string[];
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * X through the API v2 with the user's OAuth 2.0 token (authorization code with PKCE). Posts text with
 * up to four images. X has no way to look a post up by a key of ours, so there is no findPublished: an
 * attempt without an answer fails as "outcome unknown" rather than posting twice.
 */
export function xAdapter(options: XAdapterOptions = {}): NetworkAdapter {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const api: XApiConfig = {
    apiUrl: (options.apiUrl ?? X_API_URL).replace(/\/+$/, ""),
    fetch: fetchImpl,
    now: options.now ?? Date.now,
  };
  return {
    id: "x",
    rule: NETWORK_RULES.x,
    // X's documented limit on creating posts with a user token: 100 per 15 minutes per user.
    pacing: [{ count: 100, windowMs: 15 * 60_000 }],
    maxMediaBytes: X_MAX_IMAGE_BYTES,
    async connect() {
      throw new NetworkError("x", "refused", "X connects through X's own page (OAuth).");
    },
    oauth: xOAuth({
      authorizeUrl: options.authorizeUrl ?? X_AUTHORIZE_URL,
      client: {
        network: "x",
        name: "X",
        tokenUrl: `${api.apiUrl}/2/oauth2/token`,
        clientId: options.clientId ?? "",
        clientSecret: options.clientSecret ?? "",
        fetch: fetchImpl,
      },
      scopes: options.scopes ?? X_DEFAULT_SCOPES,
      missingSettings: options.missingSettings ?? [],
      api,
    }),
    publish: (account, post) => publishX(api, account, post),
  };
}
