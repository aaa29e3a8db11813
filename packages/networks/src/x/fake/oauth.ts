import { FakeOAuth } from "../../common/fake-oauth.ts";

export type { FakeApp, FakeGrant } from "../../common/fake-oauth.ts";

/*
 * The OAuth 2.0 side of the X fake, as X documents it: a consent page at /i/oauth2/authorize, PKCE
 * S256 required, the client's Basic credentials at the token endpoint, a refresh token only with
 * offline.access, and rotation on every refresh. Scopes are those of x-openapi.json's OAuth2UserToken.
 */
export class XFakeOAuth extends FakeOAuth {
  constructor(scopes: Iterable<string>, now: () => number) {
    super({
      name: "X",
      scopes,
      scopeSeparator: " ",
      authorizePath: "/i/oauth2/authorize",
      consentPath: "/i/oauth2/consent",
      tokenPath: "/2/oauth2/token",
      pkce: true,
      clientAuth: "basic",
      refreshTokenFor: (granted) => granted.includes("offline.access"),
      rotate: true,
      // X's access tokens last two hours.
      accessTokenSeconds: 7200,
      errorCodes: { grant: "invalid_request", client: "unauthorized_client" },
      now,
    });
  }
}
