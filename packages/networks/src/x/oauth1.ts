import { createHmac } from "node:crypto";
import OAuth from "oauth-1.0a";

/*
 * X's OAuth 1.0a user context: the four credentials of an app's developer portal page (the API key and
 * its secret, the access token and its secret, made for the app's own account) sign each request with
 * HMAC-SHA1, as X documents it (docs.x.com, "Creating a signature"): the method, the address without its
 * query, and every query and oauth_* parameter, percent-encoded and sorted, signed with the two secrets.
 * A JSON or multipart body is not part of the signature. The oauth-1.0a package builds the header; the
 * secrets stay inside the signer and are never part of what it answers besides the signature.
 */

/** The four credentials from the app's page on X's developer portal ("Keys and tokens"). */
export interface XOAuth1Credentials {
  /** The API key (the consumer key). */
  apiKey: string;
  /** The API key secret (the consumer secret). */
  apiKeySecret: string;
  /** The access token of the account that posts (user_id-…). */
  accessToken: string;
  /** The access token secret. */
  accessTokenSecret: string;
}

/** Signs requests with OAuth 1.0a: the Authorization header for one request. */
export interface XOAuth1Signer {
  readonly kind: "oauth1";
  /** `OAuth oauth_consumer_key="…", …, oauth_signature="…"` for `method url` (its query included). */
  authorization(method: string, url: string): string;
}

/** What each credential is called, in errors that name one that is missing. */
const NAMES: Record<keyof XOAuth1Credentials, string> = {
  apiKey: "API key",
  apiKeySecret: "API key secret",
  accessToken: "access token",
  accessTokenSecret: "access token secret",
};

/**
 * A signer for the four credentials. Throws a TypeError naming any that is empty (nothing is sent then).
 * `nonce` and `now` are for tests that compare a signature with X's documented example.
 */
export function xOAuth1Signer(
  credentials: XOAuth1Credentials,
  fixed: { nonce?: () => string; now?: () => number } = {},
): XOAuth1Signer {
  const missing = (Object.keys(NAMES) as (keyof XOAuth1Credentials)[]).filter(
    (key) => typeof credentials[key] !== "string" || credentials[key].trim() === "",
  );
  if (missing.length > 0) {
    throw new TypeError(
      `X's OAuth 1.0a credentials lack the ${missing.map((key) => NAMES[key]).join(", ")}: all four come from the app's "Keys and tokens" page on X's developer portal.`,
    );
  }
  const oauth = new OAuth({
    consumer: { key: credentials.apiKey.trim(), secret: credentials.apiKeySecret.trim() },
    signature_method: "HMAC-SHA1",
    hash_function: (base, key) => createHmac("sha1", key).update(base).digest("base64"),
  });
  if (fixed.nonce) oauth.getNonce = fixed.nonce;
  if (fixed.now) oauth.getTimeStamp = () => Math.floor(fixed.now!() / 1000);
  const token = { key: credentials.accessToken.trim(), secret: credentials.accessTokenSecret.trim() };
  return {
    kind: "oauth1",
    authorization(method, url) {
      // The query is given as data, decoded by URL's own rules, so a `+` or an escaped comma in it is
      // signed as the value X reads; the address is signed without it.
      const parsed = new URL(url);
      const data = Object.fromEntries(parsed.searchParams);
      const signed = oauth.authorize(
        { url: `${parsed.origin}${parsed.pathname}`, method: method.toUpperCase(), data },
        token,
      );
      return oauth.toHeader(signed).Authorization;
    },
  };
}
