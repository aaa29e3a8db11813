import { type ConnectedAccount, type Credentials, NetworkError, type OAuthSteps } from "@socialpub/core";
import type { OAuthStepsConfig } from "../common/oauth-adapter.ts";
import { authorizeUrl, exchangeCode } from "../common/oauth-code.ts";
import { grantOf, refreshGrant } from "../common/oauth-token.ts";
import type { TikTokApiConfig } from "./api.ts";
import { queryCreator } from "./creator.ts";

export { TIKTOK_DEFAULT_SCOPES } from "./describe.ts";

/** What the handle adds while TikTok has not audited the app: the reason every post is private. */
export const UNAUDITED_NOTE = "posts are private until TikTok audits the app";

/** The account's handle: the creator's @username, and why posts are private, when they are. */
export function creatorHandle(username: string, audited: boolean): string {
  const name = username ? `@${username}` : "TikTok creator";
  return audited ? name : `${name} (${UNAUDITED_NOTE})`;
}

/**
 * TikTok's Login Kit for Web (OAuth 2.0 v2): the app is named by its `client_key`, scopes are
 * comma-separated, and the token endpoint takes client_key and client_secret in the form. Login Kit for
 * Web documents no PKCE (TikTok asks for it from desktop and mobile apps only, with its own hex
 * encoding), so none is sent. Access tokens last 24 hours; each refresh may answer a new refresh token
 * (valid a year), which replaces the old one, so the new pair is stored before it is used.
 */
export function tiktokOAuth(config: OAuthStepsConfig<TikTokApiConfig> & { audited: boolean }): OAuthSteps {
  const { client, api } = config;
  return {
    missingSettings: config.missingSettings,
    pkce: false,
    // The app is named by client.clientIdField (client_key) on the URL as in the token request's form.
    authorizeUrl: (request) => authorizeUrl(config, request, { scopeSeparator: "," }),
    async exchange(request): Promise<ConnectedAccount> {
      const { signal } = request;
      const answer = await exchangeCode(client, request);
      const openId = String((answer as unknown as { open_id?: unknown }).open_id ?? "");
      let username = "";
      try {
        username = (await queryCreator(api, answer.access_token, signal)).username;
      } catch (error) {
        // A creator who cannot post right now still connects; publishing says why it cannot.
        if (!(error instanceof NetworkError) || error.kind === "reauth") throw error;
      }
      return {
        handle: creatorHandle(username, config.audited),
        followers: 0,
        health: "healthy",
        credentials: { ...grantOf(answer, api.now()), open_id: openId, username },
      };
    },
    refresh: (credentials, signal): Promise<Credentials> =>
      refreshGrant(client, credentials, api.now, signal),
  };
}
