import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FakeRequest } from "../../common/fake-server.ts";

/*
 * The OAuth 1.0a user context of the X fake, checked as X documents it ("Creating a signature"): the
 * Authorization header's oauth_* parameters; a signature base string of the method, the address without
 * its query (scheme and host in lower case) and every query, form-body and oauth_* parameter except the
 * signature, each percent-encoded (RFC 3986), sorted by name then value and joined with & and =; signed
 * with HMAC-SHA1 keyed by the API key secret and the access token secret, each encoded, joined with &.
 * A wrong secret, an unknown key, a nonce used before or a timestamp far from now is answered 401. Its
 * own code, not the adapter's signer, so a mistake in one is not hidden by the same mistake in the other.
 */

/** X refuses a request whose timestamp is further than this from its clock. */
const TIMESTAMP_WINDOW_MS = 5 * 60_000;

/** The four values an app's "Keys and tokens" page shows for its own account. */
export interface XFakeKeys {
  apiKey: string;
  apiKeySecret: string;
  accessToken: string;
  accessTokenSecret: string;
}

interface Consumer {
  secret: string;
  /** X's app permissions: "read" cannot post. */
  permission: "read" | "read-write";
}

interface AccessToken {
  secret: string;
  userId: string;
  apiKey: string;
}

/** Who a verified request is from. */
export interface OAuth1Caller {
  userId: string;
  permission: Consumer["permission"];
}

/** RFC 3986 percent-encoding, as OAuth 1.0a wants it: everything but A-Z a-z 0-9 - . _ ~ encoded. */
export const percentEncode = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The signature base string of a request, from its method, address and parameters. */
export function signatureBaseString(method: string, url: URL, params: readonly [string, string][]): string {
  const base = `${url.protocol.toLowerCase()}//${url.host.toLowerCase()}${url.pathname}`;
  const encoded = params
    .map(([k, v]) => [percentEncode(k), percentEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const parameterString = encoded.map(([k, v]) => `${k}=${v}`).join("&");
  return `${method.toUpperCase()}&${percentEncode(base)}&${percentEncode(parameterString)}`;
}

/** HMAC-SHA1 of the base string, keyed by the two secrets, in Base64. */
export function hmacSignature(base: string, consumerSecret: string, tokenSecret: string): string {
  return createHmac("sha1", `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`)
    .update(base)
    .digest("base64");
}

/** The oauth_* parameters of an `Authorization: OAuth k="v", …` header, or null when it is not one. */
export function oauthParams(header: string): Map<string, string> | null {
  const match = /^OAuth\s+(.*)$/i.exec(header.trim());
  if (!match) return null;
  const params = new Map<string, string>();
  for (const part of match[1]!.split(",")) {
    const pair = /^\s*([^=\s]+)="([^"]*)"\s*$/.exec(part);
    if (!pair) return null;
    try {
      params.set(decodeURIComponent(pair[1]!), decodeURIComponent(pair[2]!));
    } catch {
      return null;
    }
  }
  return params;
}

export class XFakeOAuth1 {
  readonly #consumers = new Map<string, Consumer>();
  readonly #tokens = new Map<string, AccessToken>();
  readonly #nonces = new Set<string>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** An app's keys and its own account's access token, as the developer portal makes them. */
  addKeys(userId: string, permission: Consumer["permission"] = "read-write"): XFakeKeys {
    const keys = {
      apiKey: randomBytes(18).toString("base64url"),
      apiKeySecret: randomBytes(36).toString("base64url"),
      accessToken: `${userId}-${randomBytes(20).toString("base64url")}`,
      accessTokenSecret: randomBytes(33).toString("base64url"),
    };
    this.#consumers.set(keys.apiKey, { secret: keys.apiKeySecret, permission });
    this.#tokens.set(keys.accessToken, { secret: keys.accessTokenSecret, userId, apiKey: keys.apiKey });
    return keys;
  }

  /** The access token was regenerated on the portal: the old one stops working. */
  revoke(accessToken: string): void {
    this.#tokens.delete(accessToken);
  }

  /**
   * Who signed the request (`origin` is the fake's address, which the client signed), or the reason it
   * is refused. `form` holds an application/x-www-form-urlencoded body's parameters, which are signed.
   */
  verify(
    request: FakeRequest,
    origin: string,
    form: URLSearchParams | null,
  ): OAuth1Caller | { refused: string } {
    const params = oauthParams(request.headers.get("authorization") ?? "");
    if (!params) return { refused: "the Authorization header is not OAuth 1.0a" };
    const get = (name: string) => params.get(name) ?? "";
    if (get("oauth_signature_method") !== "HMAC-SHA1")
      return { refused: "oauth_signature_method must be HMAC-SHA1" };
    if (params.has("oauth_version") && get("oauth_version") !== "1.0")
      return { refused: "oauth_version must be 1.0" };
    const consumer = this.#consumers.get(get("oauth_consumer_key"));
    const token = this.#tokens.get(get("oauth_token"));
    if (!consumer || !token || token.apiKey !== get("oauth_consumer_key"))
      return { refused: "unknown key or token" };
    const timestamp = Number(get("oauth_timestamp")) * 1000;
    if (!Number.isFinite(timestamp) || Math.abs(timestamp - this.#now()) > TIMESTAMP_WINDOW_MS)
      return { refused: "oauth_timestamp is out of bounds" };
    const nonce = get("oauth_nonce");
    if (nonce === "" || this.#nonces.has(`${get("oauth_consumer_key")}:${nonce}`))
      return { refused: "oauth_nonce was used before" };
    const signed: [string, string][] = [...params].filter(([k]) => k !== "oauth_signature" && k !== "realm");
    signed.push(...request.url.searchParams);
    if (form) signed.push(...form);
    const url = new URL(`${origin}${request.url.pathname}`);
    const expected = hmacSignature(
      signatureBaseString(request.method, url, signed),
      consumer.secret,
      token.secret,
    );
    const given = Buffer.from(get("oauth_signature"));
    if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected)))
      return { refused: "the signature does not match" };
    this.#nonces.add(`${get("oauth_consumer_key")}:${nonce}`);
    return { userId: token.userId, permission: consumer.permission };
  }
}
