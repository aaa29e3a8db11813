import { FakeOAuth } from "../../common/fake-oauth.ts";

const DAY_SECONDS = 24 * 60 * 60;

/*
 * The OAuth 2.0 side of the Pinterest fake, as Pinterest documents it: a consent page at /oauth/, no
 * PKCE, the client's Basic credentials at /v5/oauth/token, comma-separated scopes, 30-day access tokens
 * and continuous refresh tokens (60 days; each refresh answers a new one and ends the old), with the
 * answer fields of pinterest-openapi.json (response_type, refresh_token_expires_in/_at).
 */
export class PinterestFakeOAuth extends FakeOAuth {
  constructor(scopes: Iterable<string>, now: () => number) {
    super({
      name: "Pinterest",
      scopes,
      scopeSeparator: ",",
      authorizePath: "/oauth/",
      consentPath: "/oauth/consent",
      pkce: false,
      clientAuth: "basic",
      refreshTokenFor: () => true,
      rotate: true,
      accessTokenSeconds: 30 * DAY_SECONDS,
      extraTokenFields: (grant, grantType) => ({
        response_type: grantType,
        ...(grant.refreshToken && {
          refresh_token_expires_in: 60 * DAY_SECONDS,
          refresh_token_expires_at: Math.floor(now() / 1000) + 60 * DAY_SECONDS,
        }),
      }),
      now,
    });
  }
}
