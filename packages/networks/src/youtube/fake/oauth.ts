import { FakeOAuth } from "../../common/fake-oauth.ts";

export type { FakeApp, FakeGrant } from "../../common/fake-oauth.ts";

/** The YouTube scopes Google knows, as full URLs (Google's scopes are URLs). */
export const YOUTUBE_FAKE_SCOPES = [
  "https://www.googleapis.com/auth/youtube",
  "https://www.googleapis.com/auth/youtube.upload",
  "https://www.googleapis.com/auth/youtube.readonly",
  "https://www.googleapis.com/auth/youtube.force-ssl",
];

/*
 * Google's OAuth 2.0 for web server apps, as its guide documents it: a consent page at
 * /o/oauth2/v2/auth with space-separated scope URLs, PKCE S256 checked at the token endpoint, the
 * client's id and secret in the token request's form, access tokens of an hour, and a refresh token
 * only for access_type=offline. Google answers one on the first consent and afterwards only when the
 * consent was asked again (prompt=consent); this fake, which cannot tell a first consent, asks for both.
 * A refresh answers a new access token and no refresh token (Google does not rotate it: the one held
 * keeps working); the server's token route drops it from the answer.
 */
export class YouTubeFakeOAuth extends FakeOAuth {
  constructor(now: () => number) {
    super({
      name: "Google",
      scopes: YOUTUBE_FAKE_SCOPES,
      scopeSeparator: " ",
      authorizePath: "/o/oauth2/v2/auth",
      consentPath: "/o/oauth2/consent",
      pkce: true,
      clientAuth: "form",
      refreshTokenFor: (_scopes, form) =>
        form.get("access_type") === "offline" && (form.get("prompt") ?? "").split(" ").includes("consent"),
      rotate: false,
      accessTokenSeconds: 3599,
      extraTokenFields: () => ({ token_type: "Bearer" }),
      now,
    });
  }
}
