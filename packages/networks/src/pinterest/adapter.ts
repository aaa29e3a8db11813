import { NETWORK_RULES, type NetworkAdapter, NetworkError } from "@socialpub/core";
import type { PinterestApiConfig } from "./api.ts";
import { PINTEREST_DEFAULT_SCOPES, pinterestOAuth } from "./oauth.ts";
import { PINTEREST_MAX_IMAGE_BYTES, publishPinterest } from "./publish.ts";

export const PINTEREST_API_URL = "https://api.pinterest.com";
export const PINTEREST_AUTHORIZE_URL = "https://www.pinterest.com/oauth/";

export interface PinterestAdapterOptions {
  /**
   * The API's base URL without /v5 (https://api.pinterest.com; apps with trial access write to
   * https://api-sandbox.pinterest.com). The server reads SOCIALPUB_PINTEREST_API_URL.
   */
  apiUrl?: string;
  /** The authorize page (https://www.pinterest.com/oauth/; SOCIALPUB_PINTEREST_AUTH_URL). */
  authorizeUrl?: string;
  /** The app's id and secret key, from Pinterest's developer console. */
  clientId?: string;
  clientSecret?: string;
  scopes?: readonly string[];
  /** The settings the server lacks (named in the 400 a connect answers); empty when configured. */
  missingSettings?: readonly string[];
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * Pinterest through the API v5 with the user's OAuth 2.0 token: one image pin per post on the board
 * chosen at connect. Pinterest has no way to look a pin up by a key of ours, so there is no
 * findPublished: an attempt without an answer fails as "outcome unknown" rather than pinning twice.
 */
export function pinterestAdapter(options: PinterestAdapterOptions = {}): NetworkAdapter {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const api: PinterestApiConfig = {
    apiUrl: (options.apiUrl ?? PINTEREST_API_URL).replace(/\/+$/, "").replace(/\/v5$/, ""),
    fetch: fetchImpl,
    now: options.now ?? Date.now,
  };
  return {
    id: "pinterest",
    rule: NETWORK_RULES.pinterest,
    // Pinterest's write limit per user and app (org_write): 100 calls a minute.
    pacing: [{ count: 100, windowMs: 60_000 }],
    maxMediaBytes: PINTEREST_MAX_IMAGE_BYTES,
    async connect() {
      throw new NetworkError(
        "pinterest",
        "refused",
        "Pinterest connects through Pinterest's own page (OAuth).",
      );
    },
    oauth: pinterestOAuth({
      authorizeUrl: options.authorizeUrl ?? PINTEREST_AUTHORIZE_URL,
      client: {
        network: "pinterest",
        name: "Pinterest",
        tokenUrl: `${api.apiUrl}/v5/oauth/token`,
        clientId: options.clientId ?? "",
        clientSecret: options.clientSecret ?? "",
        fetch: fetchImpl,
      },
      scopes: options.scopes ?? PINTEREST_DEFAULT_SCOPES,
      missingSettings: options.missingSettings ?? [],
      api,
    }),
    publish: (account, post) => publishPinterest(api, account, post),
  };
}
