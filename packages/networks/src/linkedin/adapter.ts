import { NETWORK_RULES, type NetworkAdapter } from "@socialpub/core";
import {
  baseUrl,
  connectThroughOAuth,
  type OAuthAdapterOptions,
  oauthStepsConfig,
} from "../common/oauth-adapter.ts";
import { LINKEDIN_VERSION, type LinkedInApiConfig } from "./api.ts";
import { linkedinDescription } from "./describe.ts";
import { findLinkedInPost } from "./find-published.ts";
import { LINKEDIN_DEFAULT_SCOPES, linkedinOAuth } from "./oauth.ts";
import { LINKEDIN_MAX_IMAGE_BYTES, publishLinkedIn } from "./publish.ts";

export const LINKEDIN_API_URL = "https://api.linkedin.com";
/** LinkedIn's site: its authorize page (/oauth/v2/authorization) and token endpoint (/oauth/v2/accessToken). */
export const LINKEDIN_AUTHORIZE_URL = "https://www.linkedin.com";

/** `apiUrl` defaults to https://api.linkedin.com. */
export interface LinkedInAdapterOptions extends OAuthAdapterOptions {
  /** LinkedIn's site, for the authorize page and token endpoint (https://www.linkedin.com; SOCIALPUB_LINKEDIN_AUTH_URL). */
  authorizeUrl?: string;
  /** The LinkedIn-Version sent (YYYYMM); the one this adapter was written against by default. */
  version?: string;
}

/**
 * LinkedIn through its versioned REST API: posts as the member who connected (text, with one image or a
 * multi-image post of up to 20, each with its alt text; PUBLIC or CONNECTIONS), and adds a first
 * comment as the member. LinkedIn takes no key of ours for a post, so after an attempt whose answer was lost the
 * member's recent posts are read back for one with the same text (find-published.ts; an app LinkedIn
 * has approved for r_member_social only).
 */
export function linkedinAdapter(options: LinkedInAdapterOptions = {}): NetworkAdapter {
  const api: LinkedInApiConfig = {
    apiUrl: baseUrl(options.apiUrl, LINKEDIN_API_URL),
    version: options.version ?? LINKEDIN_VERSION,
    fetch: options.fetch ?? globalThis.fetch,
    now: options.now ?? Date.now,
  };
  const site = baseUrl(options.authorizeUrl, LINKEDIN_AUTHORIZE_URL);
  return {
    id: "linkedin",
    rule: NETWORK_RULES.linkedin,
    pacing: linkedinDescription.pacing,
    maxMediaBytes: LINKEDIN_MAX_IMAGE_BYTES,
    connect: connectThroughOAuth("linkedin", "LinkedIn", "LinkedIn's own page"),
    oauth: linkedinOAuth(
      oauthStepsConfig(options, {
        authorizeUrl: `${site}/oauth/v2/authorization`,
        client: {
          network: "linkedin",
          name: "LinkedIn",
          tokenUrl: `${site}/oauth/v2/accessToken`,
          clientAuth: "form",
        },
        defaultScopes: LINKEDIN_DEFAULT_SCOPES,
        api,
      }),
    ),
    publish: (account, post) => publishLinkedIn(api, account, post),
    findPublished: (account, lost, signal) => findLinkedInPost(api, account, lost, signal),
  };
}
