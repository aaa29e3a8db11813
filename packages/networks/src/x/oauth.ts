import { type ConnectedAccount, NetworkError, type OAuthSteps } from "@socialpub/core";
import type { OAuthStepsConfig } from "../common/oauth-adapter.ts";
import { authorizeUrl, exchangeCode } from "../common/oauth-code.ts";
import { grantOf, refreshGrant } from "../common/oauth-token.ts";
import { type XApiConfig, xCall, xSaidBy } from "./api.ts";

export { X_DEFAULT_SCOPES } from "./describe.ts";

export type XOAuthConfig = OAuthStepsConfig<XApiConfig>;

interface MeAnswer {
  data?: { id?: unknown; username?: unknown; public_metrics?: { followers_count?: number } };
}

/**
 * X's OAuth 2.0 authorization code flow with PKCE (S256). Access tokens last two hours; with
 * offline.access X gives a refresh token, and each refresh answers a new one (the old one stops
 * working), so the new pair is stored before it is used.
 */
export function xOAuth(config: XOAuthConfig): OAuthSteps {
  const { client, api } = config;
  return {
    missingSettings: config.missingSettings,
    pkce: true,
    authorizeUrl: (request) => authorizeUrl(config, request, { pkce: true }),
    async exchange(request): Promise<ConnectedAccount> {
      const { signal } = request;
      // X wants the client id in the form besides its Basic auth.
      const answer = await exchangeCode(client, request, {
        pkce: true,
        extra: { client_id: client.clientId },
      });
      const me = (await xCall(
        api,
        answer.access_token,
        "GET",
        "/2/users/me?user.fields=public_metrics",
        null,
        signal,
        true,
      )) as MeAnswer | null;
      const { id, username, public_metrics } = me?.data ?? {};
      if (typeof id !== "string" || typeof username !== "string") {
        // X answers 200 with only `errors` for an account it cannot show (suspended, locked).
        throw new NetworkError(
          "x",
          "retry",
          `X granted access but did not say which account it is ${xSaidBy(me, 200)}.`,
          { status: 200 },
        );
      }
      return {
        handle: `@${username}`,
        followers: public_metrics?.followers_count ?? 0,
        health: "healthy",
        credentials: { ...grantOf(answer, api.now()), user_id: id, username },
      };
    },
    // X rotates the refresh token on every refresh and wants the client id in the form besides.
    refresh: (credentials, signal) =>
      refreshGrant(client, credentials, api.now, signal, { client_id: client.clientId }),
  };
}
