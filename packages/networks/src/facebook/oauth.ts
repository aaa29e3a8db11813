import { type ConnectedAccount, NetworkError, type OAuthSteps } from "@socialpub/core";
import type { OAuthStepsConfig } from "../common/oauth-adapter.ts";
import { authorizeUrl } from "../common/oauth-code.ts";
import { requestToken } from "../common/oauth-token.ts";
import { type FacebookApiConfig, graphCall } from "./api.ts";

export { FACEBOOK_DEFAULT_SCOPES } from "./describe.ts";

/** Meta's long-lived user tokens last 60 days when it does not say. */
const LONG_LIVED_SECONDS = 60 * 24 * 60 * 60;
const MAX_PAGES = 100;

export type FacebookOAuthConfig = OAuthStepsConfig<FacebookApiConfig>;

interface PageEntry {
  id?: string;
  name?: string;
  access_token?: string;
  followers_count?: number;
}

/**
 * Facebook Login for a Page: the code is traded for a short-lived user token, that for a long-lived one
 * (60 days, fb_exchange_token), and that lists the user's Pages with a Page token each. The Page chosen
 * at connect (`page`: its name or id; the first Page when left out) is kept with its token. Meta gives
 * no refresh token: the grant is taken to end with the long-lived user token, so the account turns
 * `expiring` 7 days before and the user connects again.
 */
export function facebookOAuth(config: FacebookOAuthConfig): OAuthSteps {
  const { client, api } = config;
  return {
    missingSettings: config.missingSettings,
    pkce: false,
    startFields(fields): Record<string, string> {
      const page = fields.page;
      if (page === undefined) return {};
      if (typeof page !== "string" || page.trim().length === 0 || page.length > 200) {
        throw new NetworkError(
          "facebook",
          "refused",
          "page must be the name or id of a Facebook Page the user manages (up to 200 characters); leave it out for the first Page.",
        );
      }
      return { page: page.trim() };
    },
    authorizeUrl: (request) => authorizeUrl(config, request, { scopeSeparator: "," }),
    async exchange({ code, redirectUri, fields, signal }): Promise<ConnectedAccount> {
      const short = await requestToken(client, { code, redirect_uri: redirectUri }, signal);
      const long = await requestToken(
        client,
        { grant_type: "fb_exchange_token", fb_exchange_token: short.access_token },
        signal,
      );
      const expiresAt = api.now() + (long.expires_in ?? LONG_LIVED_SECONDS) * 1000;
      const answer = (await graphCall(
        api,
        long.access_token,
        "GET",
        `/me/accounts?fields=id,name,access_token,followers_count&limit=${MAX_PAGES}`,
        null,
        signal,
        true,
      )) as { data?: PageEntry[] } | null;
      const pages = (answer?.data ?? []).filter((p) => p.id && p.name && p.access_token);
      const want = fields.page?.toLowerCase();
      const page =
        want === undefined ? pages[0] : pages.find((p) => p.id === want || p.name!.toLowerCase() === want);
      if (!page) {
        const names = pages.slice(0, 20).map((p) => `"${p.name}"`);
        throw new NetworkError(
          "facebook",
          "refused",
          want === undefined
            ? "This Facebook user manages no Page this app was given; choose a Page on Facebook's dialog, or create one, then connect again."
            : `This Facebook user gave this app no Page "${fields.page}"${names.length > 0 ? `; the Pages given are ${names.join(", ")}` : ""}. Connect again choosing it on Facebook's dialog.`,
        );
      }
      return {
        handle: page.name!,
        followers: page.followers_count ?? 0,
        health: "healthy",
        credentials: {
          access_token: page.access_token!,
          refresh_token: null,
          expires_at: expiresAt,
          page_id: page.id!,
        },
      };
    },
    async refresh(): Promise<never> {
      throw new NetworkError(
        "facebook",
        "reauth",
        "Facebook gives no refresh token; connect the Page again.",
      );
    },
  };
}
