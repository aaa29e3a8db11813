import { NETWORK_RULES, type NetworkAdapter, NetworkError } from "@socialpub/core";
import { LINKEDIN_VERSION, type LinkedInApiConfig } from "./api.ts";
import { LINKEDIN_DEFAULT_SCOPES, linkedinOAuth } from "./oauth.ts";
import { LINKEDIN_MAX_IMAGE_BYTES, publishLinkedIn } from "./publish.ts";

export const LINKEDIN_API_URL = "https://api.linkedin.com";
/** LinkedIn's site: its authorize page (/oauth/v2/authorization) and token endpoint (/oauth/v2/accessToken). */
export const LINKEDIN_AUTH_URL = "https://www.linkedin.com";

export interface LinkedInAdapterOptions {
  /** The API (https://api.linkedin.com; SOCIALPUB_LINKEDIN_API_URL). */
  apiUrl?: string;
  /** LinkedIn's site, for the authorize page and token endpoint (https://www.linkedin.com; SOCIALPUB_LINKEDIN_AUTH_URL). */
  authUrl?: string;
  clientId?: string;
  clientSecret?: string;
  scopes?: readonly string[];
  /** The LinkedIn-Version sent (YYYYMM); the one this adapter was written against by default. */
  version?: string;
  missingSettings?: readonly string[];
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * LinkedIn through its versioned REST API: posts as the member who connected (text, or text with one
 * image). LinkedIn gives no way to find a post by a key of ours: an attempt without an answer fails as
 * "outcome unknown" rather than posting twice.
 */
export function linkedinAdapter(options: LinkedInAdapterOptions = {}): NetworkAdapter {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const api: LinkedInApiConfig = {
    apiUrl: (options.apiUrl ?? LINKEDIN_API_URL).replace(/\/+$/, ""),
    version: options.version ?? LINKEDIN_VERSION,
    fetch: fetchImpl,
    now: options.now ?? Date.now,
  };
  const authUrl = (options.authUrl ?? LINKEDIN_AUTH_URL).replace(/\/+$/, "");
  return {
    id: "linkedin",
    rule: NETWORK_RULES.linkedin,
    // LinkedIn's member limit on creating posts: 150 a day.
    pacing: [{ count: 150, windowMs: 24 * 60 * 60_000 }],
    maxMediaBytes: LINKEDIN_MAX_IMAGE_BYTES,
    async connect() {
      throw new NetworkError("linkedin", "refused", "LinkedIn connects through LinkedIn's own page (OAuth).");
    },
    oauth: linkedinOAuth({
      authorizeUrl: `${authUrl}/oauth/v2/authorization`,
      client: {
        network: "linkedin",
        name: "LinkedIn",
        tokenUrl: `${authUrl}/oauth/v2/accessToken`,
        clientId: options.clientId ?? "",
        clientSecret: options.clientSecret ?? "",
        clientAuth: "form",
        fetch: fetchImpl,
      },
      scopes: options.scopes ?? LINKEDIN_DEFAULT_SCOPES,
      missingSettings: options.missingSettings ?? [],
      api,
    }),
    publish: (account, post) => publishLinkedIn(api, account, post),
  };
}
