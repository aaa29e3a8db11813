import { NETWORK_RULES, type NetworkAdapter } from "@socialpub/core";
import {
  baseUrl,
  connectThroughOAuth,
  type OAuthAdapterOptions,
  oauthStepsConfig,
} from "../common/oauth-adapter.ts";
import type { PinterestApiConfig } from "./api.ts";
import { pinterestDescription } from "./describe.ts";
import { findPin } from "./find-published.ts";
import { readPinterestMetrics } from "./metrics.ts";
import { PINTEREST_DEFAULT_SCOPES, pinterestOAuth } from "./oauth.ts";
import { PINTEREST_MAX_IMAGE_BYTES, publishPinterest } from "./publish.ts";

export const PINTEREST_API_URL = "https://api.pinterest.com";
export const PINTEREST_AUTHORIZE_URL = "https://www.pinterest.com/oauth/";

/**
 * `apiUrl` is the API's base URL without /v5 (https://api.pinterest.com; apps with trial access write
 * to https://api-sandbox.pinterest.com); the client id and secret are the app's id and secret key.
 */
export interface PinterestAdapterOptions extends OAuthAdapterOptions {
  /** The authorize page (https://www.pinterest.com/oauth/; SOCIALPUB_PINTEREST_AUTH_URL). */
  authorizeUrl?: string;
}

/**
 * Pinterest through the API v5 with the user's OAuth 2.0 token: one pin per post (an image, or a
 * carousel of 2–5) on the board chosen at connect or options.pinterest.board_id. Pinterest has no way to look a pin up by a key of ours, so after an attempt without
 * an answer the board's pins are read back for one with the same text made since (find-published.ts):
 * found, it is the post; not there, the pin is made again.
 */
export function pinterestAdapter(options: PinterestAdapterOptions = {}): NetworkAdapter {
  const api: PinterestApiConfig = {
    apiUrl: baseUrl(options.apiUrl, PINTEREST_API_URL).replace(/\/v5$/, ""),
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? Date.now,
  };
  return {
    id: "pinterest",
    rule: NETWORK_RULES.pinterest,
    pacing: pinterestDescription.pacing,
    maxMediaBytes: PINTEREST_MAX_IMAGE_BYTES,
    connect: connectThroughOAuth("pinterest", "Pinterest", "Pinterest's own page"),
    oauth: pinterestOAuth(
      oauthStepsConfig(options, {
        authorizeUrl: options.authorizeUrl ?? PINTEREST_AUTHORIZE_URL,
        client: { network: "pinterest", name: "Pinterest", tokenUrl: `${api.apiUrl}/v5/oauth/token` },
        defaultScopes: PINTEREST_DEFAULT_SCOPES,
        api,
      }),
    ),
    publish: (account, post) => publishPinterest(api, account, post),
    findPublished: (account, lost, signal) => findPin(api, account, lost, signal),
    readMetrics: (account, post, signal) => readPinterestMetrics(api, account, post, signal),
  };
}
