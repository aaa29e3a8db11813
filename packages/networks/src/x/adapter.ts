import { NETWORK_RULES, type NetworkAdapter } from "@socialpub/core";
import {
  baseUrl,
  connectThroughOAuth,
  type OAuthAdapterOptions,
  oauthStepsConfig,
} from "../common/oauth-adapter.ts";
import type { XApiConfig } from "./api.ts";
import { X_SEGMENT_BYTES } from "./chunked-upload.ts";
import { xDescription } from "./describe.ts";
import { findXPost } from "./find-published.ts";
import { X_MAX_VIDEO_BYTES } from "./media-plan.ts";
import { xMetricsReader } from "./metrics.ts";
import { X_DEFAULT_SCOPES, xOAuth } from "./oauth.ts";
import { publishX } from "./publish.ts";

export const X_API_URL = "https://api.x.com";
export const X_AUTHORIZE_URL = "https://x.com/i/oauth2/authorize";

/** `apiUrl` defaults to https://api.x.com; the client id and secret come from X's developer console. */
export interface XAdapterOptions extends OAuthAdapterOptions {
  /** The authorize page (https://x.com/i/oauth2/authorize; the server reads SOCIALPUB_X_AUTH_URL). */
  authorizeUrl?: string;
  /** What one append of a chunked (video, GIF) upload sends at most (default 4 MiB; X takes up to 5 MB). */
  segmentBytes?: number;
}

/**
 * X through the API v2 with the user's OAuth 2.0 token (authorization code with PKCE). Posts text with
 * up to four images, one video or one animated GIF (chunked upload, resumed from the target's saved
 * step). X takes no key of ours for a post, so after an attempt whose answer was lost the account's
 * timeline is read back for a post with the same text made since (find-published.ts).
 */
export function xAdapter(options: XAdapterOptions = {}): NetworkAdapter {
  const api: XApiConfig = {
    apiUrl: baseUrl(options.apiUrl, X_API_URL),
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? Date.now,
  };
  const segmentBytes = options.segmentBytes ?? X_SEGMENT_BYTES;
  if (!Number.isInteger(segmentBytes) || segmentBytes <= 0 || segmentBytes > 5 * 1024 * 1024) {
    throw new RangeError(
      "segmentBytes must be a positive number of bytes up to 5 MB (X's limit per append).",
    );
  }
  const readMetrics = xMetricsReader(api);
  return {
    id: "x",
    rule: NETWORK_RULES.x,
    pacing: xDescription.pacing,
    // The largest X takes (a video); images and GIFs are held to their own limits when posted.
    maxMediaBytes: X_MAX_VIDEO_BYTES,
    connect: connectThroughOAuth("x", "X", "X's own page"),
    oauth: xOAuth(
      oauthStepsConfig(options, {
        authorizeUrl: options.authorizeUrl ?? X_AUTHORIZE_URL,
        client: { network: "x", name: "X", tokenUrl: `${api.apiUrl}/2/oauth2/token` },
        defaultScopes: X_DEFAULT_SCOPES,
        api,
      }),
    ),
    publish: (account, post) => publishX(api, { segmentBytes }, account, post),
    findPublished: (account, lost, signal) => findXPost(api, account, lost, signal),
    readMetrics,
  };
}
