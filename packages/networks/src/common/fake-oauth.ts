import { createHash, randomBytes } from "node:crypto";
import { type FakeAnswer, type FakeRequest, startFakeServer } from "./fake-server.ts";
import type { OpenApiCheck } from "./openapi-check.ts";
import { oauthScopesOf, operationScopesOf } from "./spec-files.ts";

/*
 * The OAuth 2.0 side of a network fake, as the networks document it: the authorize page (a consent
 * page whose form sends the person back to the app's redirect_uri with a code, or with
 * error=access_denied), and the token endpoint (authorization_code, with PKCE S256 checked where the
 * network takes it, and refresh_token, rotating where the network rotates: the refresh token used
 * stops working, and so does the access token it replaced). Each network's fake configures one with its
 * own habits (how scopes are separated, how the client authenticates, what a token answer carries).
 */

export interface FakeApp {
  clientId: string;
  clientSecret: string;
}

export interface FakeGrant {
  userId: string;
  scopes: string[];
  accessToken: string;
  refreshToken: string | null;
  /** When the access token stops working (fake's clock, Unix ms). */
  accessExpiresAt: number;
  revoked: boolean;
}

export interface FakeOAuthOptions {
  /** The network's name, as its pages say it. */
  name: string;
  /** The scopes the network knows; any other is refused on the authorize page. */
  scopes: Iterable<string>;
  /** How the authorize URL separates scopes (X, Reddit, LinkedIn: space; Pinterest, Facebook: comma). */
  scopeSeparator: " " | ",";
  /** The authorize page (GET). */
  authorizePath: string;
  /** Where the consent page's form posts. */
  consentPath: string;
  /**
   * The token endpoint, when the fake answers it as is; left out where the network wraps its answers
   * (its own error shape, a spec check) and calls `token` itself.
   */
  tokenPath?: string;
  /** Whether the authorize request must carry an S256 code_challenge, checked at the token endpoint. */
  pkce: boolean;
  /** How the app proves itself at the token endpoint: Basic auth, or client_id/client_secret in the form. */
  clientAuth: "basic" | "form";
  /** The parameter naming the app on the authorize page and in the token form (TikTok: client_key). */
  clientIdParam?: string;
  /** Whether a grant of these scopes gets a refresh token. */
  refreshTokenFor: (scopes: string[], form: URLSearchParams) => boolean;
  /** Whether a refresh answers a new refresh token (and ends the old one). */
  rotate: boolean;
  /** Lifetime of access tokens at start. */
  accessTokenSeconds: number;
  /** The `error` codes the token endpoint answers (RFC 6749: invalid_grant, invalid_client). */
  errorCodes?: { grant: string; client: string };
  /** Fields the network adds to a token answer. */
  extraTokenFields?: (grant: FakeGrant, grantType: string) => Record<string, unknown>;
  now: () => number;
}

interface PendingConsent {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string;
  challenge: string;
  userId: string;
  form: URLSearchParams;
}

const token = () => randomBytes(24).toString("base64url");
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class FakeOAuth {
  readonly apps = new Map<string, FakeApp>();
  readonly grants: FakeGrant[] = [];
  /** What each token request was, in order ("authorization_code", "refresh_token"), and its status. */
  readonly tokenRequests: { grantType: string; status: number }[] = [];
  /** Who is signed in to the fake's site, and so who consents; null: no one. */
  signedIn: string | null = null;
  /** Lifetime of the access tokens issued from now on. */
  accessTokenSeconds: number;
  /**
   * While set, what token answers say as `expires_in` instead of the tokens' lifetime (a test's odd
   * value: negative, zero); the tokens still last accessTokenSeconds.
   */
  saidExpiresIn: number | null = null;
  readonly #pending = new Map<string, PendingConsent>();
  readonly #codes = new Map<string, Omit<PendingConsent, "state">>();
  readonly #scopes: ReadonlySet<string>;
  readonly #options: FakeOAuthOptions;

  constructor(options: FakeOAuthOptions) {
    this.#options = options;
    this.#scopes = new Set(options.scopes);
    this.accessTokenSeconds = options.accessTokenSeconds;
  }

  /** Registers an app on the network's developer console; `fresh` makes the id and secret the network's way. */
  addApp(app: Partial<FakeApp>, fresh: { clientId: () => string; clientSecret: () => string }): FakeApp {
    const made = {
      clientId: app.clientId ?? fresh.clientId(),
      clientSecret: app.clientSecret ?? fresh.clientSecret(),
    };
    this.apps.set(made.clientId, made);
    return made;
  }

  /** The answer to a request for the authorize page, the consent form or the token endpoint; null for others. */
  route(request: FakeRequest): FakeAnswer | null {
    const { authorizePath, consentPath, tokenPath } = this.#options;
    const { pathname } = request.url;
    if (request.method === "GET" && pathname === authorizePath) return this.authorize(request);
    if (request.method !== "POST" || (pathname !== consentPath && pathname !== tokenPath)) return null;
    const form = new URLSearchParams(new TextDecoder().decode(request.body));
    return pathname === consentPath ? this.consent(form) : this.token(request, form);
  }

  /** The grant an access token belongs to, while it works. */
  grantFor(accessToken: string): FakeGrant | null {
    const grant = this.grants.find((g) => g.accessToken === accessToken);
    if (!grant || grant.revoked || grant.accessExpiresAt <= this.#options.now()) return null;
    return grant;
  }

  /** The grant behind a request's `Authorization: Bearer …` header, while it works. */
  grantOf(request: FakeRequest): FakeGrant | null {
    return this.grantFor((request.headers.get("authorization") ?? "").replace(/^Bearer /i, ""));
  }

  /** The user removed the app's access: every token of theirs stops working. */
  revoke(userId: string): void {
    for (const grant of this.grants) if (grant.userId === userId) grant.revoked = true;
  }

  /** Every access token issued so far ends now. */
  expireAccessTokens(): void {
    const now = this.#options.now();
    for (const grant of this.grants) grant.accessExpiresAt = Math.min(grant.accessExpiresAt, now);
  }

  authorize(request: FakeRequest): FakeAnswer {
    const { name, pkce, consentPath, scopeSeparator } = this.#options;
    const q = request.url.searchParams;
    const problems: string[] = [];
    const clientId = q.get(this.#options.clientIdParam ?? "client_id") ?? "";
    if (q.get("response_type") !== "code") problems.push("response_type must be code");
    if (!this.apps.has(clientId)) problems.push("unknown client_id");
    const redirectUri = q.get("redirect_uri") ?? "";
    if (!/^https?:\/\//.test(redirectUri)) problems.push("redirect_uri is missing");
    const scopes = (q.get("scope") ?? "").split(scopeSeparator).filter(Boolean);
    const unknown = scopes.filter((s) => !this.#scopes.has(s));
    if (scopes.length === 0 || unknown.length > 0) problems.push(`bad scope ${unknown.join(" ")}`);
    const state = q.get("state") ?? "";
    if (!state) problems.push("state is missing");
    const challenge = q.get("code_challenge") ?? "";
    if (pkce && (q.get("code_challenge_method") !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(challenge))) {
      problems.push("code_challenge must be an S256 challenge");
    }
    if (problems.length > 0) return page(400, "Something went wrong", problems.join("; "));
    if (!this.signedIn) return page(401, `Sign in to ${name}`, "No one is signed in.");
    const id = token();
    this.#pending.set(id, {
      clientId,
      redirectUri,
      scopes,
      state,
      challenge,
      userId: this.signedIn,
      form: new URLSearchParams(q),
    });
    return page(
      200,
      "Authorize app",
      `The app wants: ${scopes.join(", ")}.`,
      `<form method="post" action="${escapeHtml(consentPath)}"><input type="hidden" name="request" value="${id}">` +
        `<button name="decision" value="allow">Authorize app</button> <button name="decision" value="deny">Cancel</button></form>`,
    );
  }

  consent(form: URLSearchParams): FakeAnswer {
    const id = form.get("request") ?? "";
    const pending = this.#pending.get(id);
    if (!pending) return page(400, "Something went wrong", "This authorization request is unknown or used.");
    this.#pending.delete(id);
    const back = new URL(pending.redirectUri);
    back.searchParams.set("state", pending.state);
    if (form.get("decision") !== "allow") {
      back.searchParams.set("error", "access_denied");
    } else {
      const code = token();
      const { state: _state, ...issued } = pending;
      this.#codes.set(code, issued);
      back.searchParams.set("code", code);
    }
    return { status: 302, headers: { location: back.href }, text: "" };
  }

  token(request: FakeRequest, form: URLSearchParams): FakeAnswer {
    const grantType = form.get("grant_type") ?? "";
    const answer = this.#token(request, form, grantType);
    this.tokenRequests.push({ grantType, status: answer.status });
    return answer;
  }

  #token(request: FakeRequest, form: URLSearchParams, grantType: string): FakeAnswer {
    const codes = this.#options.errorCodes ?? { grant: "invalid_grant", client: "invalid_client" };
    const app = this.#client(request, form);
    if (!app) return oauthError(401, codes.client, "Client authentication failed");
    if (grantType === "authorization_code") {
      const issued = this.#codes.get(form.get("code") ?? "");
      if (issued) this.#codes.delete(form.get("code")!);
      if (!issued || issued.clientId !== app.clientId || issued.redirectUri !== form.get("redirect_uri")) {
        return oauthError(400, codes.grant, "The authorization code is invalid or expired.");
      }
      if (this.#options.pkce) {
        const verifier = form.get("code_verifier") ?? "";
        if (createHash("sha256").update(verifier).digest("base64url") !== issued.challenge) {
          return oauthError(400, codes.grant, "The code verifier does not match the challenge.");
        }
      }
      const refresh = this.#options.refreshTokenFor(issued.scopes, issued.form);
      return this.#issue(issued.userId, issued.scopes, refresh ? token() : null, grantType);
    }
    if (grantType === "refresh_token") {
      const grant = this.grants.find((g) => g.refreshToken === form.get("refresh_token") && !g.revoked);
      if (!grant) return oauthError(400, codes.grant, "The refresh token is invalid or revoked.");
      if (this.#options.rotate) {
        // Rotation: the refresh token used, and the access token it replaces, stop working.
        grant.revoked = true;
        return this.#issue(grant.userId, grant.scopes, token(), grantType);
      }
      return this.#issue(grant.userId, grant.scopes, grant.refreshToken, grantType);
    }
    return oauthError(400, "unsupported_grant_type", `grant_type ${grantType} is not supported`);
  }

  #issue(userId: string, scopes: string[], refreshToken: string | null, grantType: string): FakeAnswer {
    const grant: FakeGrant = {
      userId,
      scopes,
      accessToken: token(),
      refreshToken,
      accessExpiresAt: this.#options.now() + this.accessTokenSeconds * 1000,
      revoked: false,
    };
    this.grants.push(grant);
    return {
      status: 200,
      json: {
        token_type: "bearer",
        expires_in: this.saidExpiresIn ?? this.accessTokenSeconds,
        access_token: grant.accessToken,
        scope: scopes.join(this.#options.scopeSeparator),
        ...(refreshToken && { refresh_token: refreshToken }),
        ...this.#options.extraTokenFields?.(grant, grantType),
      },
    };
  }

  #client(request: FakeRequest, form: URLSearchParams): FakeApp | null {
    let id: string | undefined;
    let secret: string | undefined;
    if (this.#options.clientAuth === "basic") {
      const header = request.headers.get("authorization") ?? "";
      if (!header.startsWith("Basic ")) return null;
      [id, secret] = Buffer.from(header.slice(6), "base64")
        .toString("utf8")
        .split(":")
        .map(decodeURIComponent);
    } else {
      id = form.get(this.#options.clientIdParam ?? "client_id") ?? undefined;
      secret = form.get("client_secret") ?? undefined;
    }
    const app = this.apps.get(id ?? "");
    return app && app.clientSecret === secret ? app : null;
  }
}

export function oauthError(status: number, error: string, description: string): FakeAnswer {
  return { status, json: { error, error_description: description } };
}

/** A small HTML page of the network's site. */
export function page(status: number, title: string, message: string, extra = ""): FakeAnswer {
  return {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
    text: `<!doctype html><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${extra}`,
  };
}

/**
 * What every OAuth network fake offers its tests besides its API: who is signed in to consent, and the
 * user's access ending (revoked in the network's settings, or expired as time passing would do).
 */
export abstract class OAuthNetworkFake<User extends { id: string }> {
  /** http://127.0.0.1:PORT, the fake's address. */
  readonly url: string;
  abstract readonly oauth: FakeOAuth;
  readonly #close: () => Promise<void>;

  constructor(url: string, close: () => Promise<void>) {
    this.url = url;
    this.#close = close;
  }

  close(): Promise<void> {
    return this.#close();
  }

  /** Who consents on the authorize page from now on. */
  signIn(user: User): void {
    this.oauth.signedIn = user.id;
  }

  /** The user removed the app's access on the network: every token of theirs stops working. */
  revokeAccess(user: User): void {
    this.oauth.revoke(user.id);
  }

  /** Every access token issued so far ends now. */
  expireAccessTokens(): void {
    this.oauth.expireAccessTokens();
  }
}

/**
 * Starts an OAuth network fake on a loopback port (`port`, else any free one): `make` builds the fake
 * once the server's address is known, and `handle` answers each request with it.
 */
export async function startOAuthFake<F>(
  port: number | undefined,
  make: (url: string, close: () => Promise<void>) => F,
  handle: (fake: F, request: FakeRequest) => Promise<FakeAnswer>,
): Promise<F> {
  let fake: F | undefined;
  const server = await startFakeServer((request) => handle(fake!, request), port);
  fake = make(server.url, () => server.close());
  return fake;
}

/**
 * What a network's OpenAPI description gives its fake (X, Pinterest): the scopes its OAuth scheme
 * knows, the scopes each operation requires, and the check of the fake's traffic against it (null when
 * a test turns it off).
 */
export interface FakeOAuthSpec {
  /** The scopes the description's OAuth scheme lists, which the authorize page accepts. */
  readonly scopes: string[];
  readonly check: OpenApiCheck | null;
  /** The scopes `method path` requires that `grant` lacks; none for an operation the description lacks. */
  missingScopes(grant: FakeGrant, method: string, path: string): string[];
  /** What strays in a request, as sentences ([] when nothing, or when the check is off). */
  checkRequest(request: FakeRequest, path: string, body: unknown): string[];
  /** What strays in the answer to a request, as sentences. */
  checkAnswer(request: FakeRequest, path: string, answer: FakeAnswer): string[];
}

/**
 * Reads `file` (a description in the networks' spec folder) for a fake: its OAuth scheme `scheme`'s
 * scopes, each operation's, and, unless `checkSpec` is false, a check of the traffic labelled `label`.
 */
export async function loadFakeOAuthSpec(
  file: string,
  scheme: string,
  label: string,
  checkSpec = true,
): Promise<FakeOAuthSpec> {
  // Loaded only here: the check compiles validators (openapi-backend), which fakes without a
  // description never need.
  const check = checkSpec
    ? await (await import("./openapi-check.ts")).OpenApiCheck.shared(file, label)
    : null;
  const scopesOf = operationScopesOf(file, scheme);
  return {
    scopes: oauthScopesOf(file, scheme),
    check,
    missingScopes: (grant, method, path) =>
      (scopesOf(method, path) ?? []).filter((scope) => !grant.scopes.includes(scope)),
    checkRequest: (request, path, body) =>
      check?.request({
        method: request.method,
        path,
        query: Object.fromEntries(request.url.searchParams),
        headers: Object.fromEntries(request.headers),
        ...(body !== undefined && { body }),
      }) ?? [],
    checkAnswer: (request, path, answer) =>
      check?.answer(request.method, path, answer.status, answer.headers ?? {}, answer.json) ?? [],
  };
}
