import type { ConnectedAccount, OAuthSteps } from "@socialpub/core";
import type { OAuthStepsConfig } from "../common/oauth-adapter.ts";
import { authorizeUrl, exchangeCode } from "../common/oauth-code.ts";
import { grantOf, refreshGrant } from "../common/oauth-token.ts";
import { type LinkedInApiConfig, linkedinCall } from "./api.ts";

export { LINKEDIN_DEFAULT_SCOPES } from "./describe.ts";

export type LinkedInOAuthConfig = OAuthStepsConfig<LinkedInApiConfig>;

interface UserInfo {
  sub?: string;
  name?: string;
}

/**
 * LinkedIn's OAuth 2.0 authorization code flow for a web app: no PKCE, the client id and secret in the
 * token request's form. Access tokens last 60 days. Only apps LinkedIn has approved for programmatic
 * refresh get a refresh token (365 days, not rotated); for the others the grant cannot be renewed by us,
 * so the account turns `expiring` 7 days before it ends and the member connects again.
 */
export function linkedinOAuth(config: LinkedInOAuthConfig): OAuthSteps {
  const { client, api } = config;
  return {
    missingSettings: config.missingSettings,
    pkce: false,
    authorizeUrl: (request) => authorizeUrl(config, request),
    async exchange(request): Promise<ConnectedAccount> {
      const { signal } = request;
      const answer = await exchangeCode(client, request);
      const { body } = await linkedinCall(
        api,
        answer.access_token,
        "GET",
        "/v2/userinfo",
        null,
        signal,
        true,
      );
      const me = (body ?? {}) as UserInfo;
      return {
        handle: me.name ?? "LinkedIn member",
        followers: 0,
        health: "healthy",
        credentials: { ...grantOf(answer, api.now()), author: `urn:li:person:${me.sub ?? ""}` },
      };
    },
    refresh: (credentials, signal) => refreshGrant(client, credentials, api.now, signal),
  };
}
