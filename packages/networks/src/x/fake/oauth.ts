import { createHash, randomBytes } from "node:crypto";
import type { FakeAnswer, FakeRequest } from "../../common/fake-server.ts";

/*
 * The OAuth 2.0 side of the X fake, as X documents it: the authorize page (a consent page whose form
 * sends the person back to the app's redirect_uri with a code, or with error=access_denied), and the
 * token endpoint (authorization_code with PKCE S256 checked, refresh_token with rotation: the refresh
 * token used stops working, and so does the access token it replaced). Scopes are checked against the
 * OAuth2UserToken scheme of x-openapi.json.
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

interface PendingConsent {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string;
  challenge: string;
  userId: string;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  challenge: string;
  userId: string;
}

const token = () => randomBytes(24).toString("base64url");
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class XFakeOAuth {
  readonly apps = new Map<string, FakeApp>();
  readonly grants: FakeGrant[] = [];
  /** What each token request was, in order ("authorization_code", "refresh_token"), and its status. */
  readonly tokenRequests: { grantType: string; status: number }[] = [];
  /** Who is signed in to the fake's site, and so who consents; null: no one. */
  signedIn: string | null = null;
  /** Lifetime of the access tokens issued from now on (X: two hours). */
  accessTokenSeconds = 7200;
  readonly #pending = new Map<string, PendingConsent>();
  readonly #codes = new Map<string, IssuedCode>();
  readonly #scopes: ReadonlySet<string>;
  readonly #now: () => number;

  constructor(scopes: Iterable<string>, now: () => number) {
    this.#scopes = new Set(scopes);
    this.#now = now;
  }

  /** The grant an access token belongs to, while it works. */
  grantFor(accessToken: string): FakeGrant | null {
    const grant = this.grants.find((g) => g.accessToken === accessToken);
    if (!grant || grant.revoked || grant.accessExpiresAt <= this.#now()) return null;
    return grant;
  }

  authorize(request: FakeRequest): FakeAnswer {
    const q = request.url.searchParams;
    const problems: string[] = [];
    const clientId = q.get("client_id") ?? "";
    if (q.get("response_type") !== "code") problems.push("response_type must be code");
    if (!this.apps.has(clientId)) problems.push("unknown client_id");
    const redirectUri = q.get("redirect_uri") ?? "";
    if (!/^https?:\/\//.test(redirectUri)) problems.push("redirect_uri is missing");
    const scopes = (q.get("scope") ?? "").split(" ").filter(Boolean);
    const unknown = scopes.filter((s) => !this.#scopes.has(s));
    if (scopes.length === 0 || unknown.length > 0) problems.push(`bad scope ${unknown.join(" ")}`);
    const state = q.get("state") ?? "";
    if (!state) problems.push("state is missing");
    const challenge = q.get("code_challenge") ?? "";
    if (q.get("code_challenge_method") !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      problems.push("code_challenge must be an S256 challenge");
    }
    if (problems.length > 0) return page(400, "Something went wrong", problems.join("; "));
    if (!this.signedIn) return page(401, "Sign in to X", "No one is signed in.");
    const id = token();
    this.#pending.set(id, { clientId, redirectUri, scopes, state, challenge, userId: this.signedIn });
    return page(
      200,
      "Authorize app",
      `The app wants: ${scopes.join(", ")}.`,
      `<form method="post" action="/i/oauth2/consent"><input type="hidden" name="request" value="${id}">` +
        `<button name="decision" value="allow">Authorize app</button> <button name="decision" value="deny">Cancel</button></form>`,
    );
  }

  consent(form: URLSearchParams): FakeAnswer {
    const pending = this.#pending.get(form.get("request") ?? "");
    if (!pending) return page(400, "Something went wrong", "This authorization request is unknown or used.");
    this.#pending.delete(form.get("request")!);
    const back = new URL(pending.redirectUri);
    back.searchParams.set("state", pending.state);
    if (form.get("decision") !== "allow") {
      back.searchParams.set("error", "access_denied");
    } else {
      const code = token();
      this.#codes.set(code, {
        clientId: pending.clientId,
        redirectUri: pending.redirectUri,
        scopes: pending.scopes,
        challenge: pending.challenge,
        userId: pending.userId,
      });
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
    const app = this.#client(request);
    if (!app) return oauthError(401, "unauthorized_client", "Missing valid authorization header");
    if (grantType === "authorization_code") {
      const issued = this.#codes.get(form.get("code") ?? "");
      if (issued) this.#codes.delete(form.get("code")!);
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      if (!issued || issued.clientId !== app.clientId || issued.redirectUri !== form.get("redirect_uri")) {
        return oauthError(400, "invalid_request", "Value passed for the authorization code was invalid.");
      }
      if (challenge !== issued.challenge) {
        return oauthError(400, "invalid_request", "Value passed for the code verifier was invalid.");
      }
      return this.#issue(issued.userId, issued.scopes);
    }
    if (grantType === "refresh_token") {
      const grant = this.grants.find((g) => g.refreshToken === form.get("refresh_token") && !g.revoked);
      if (!grant) return oauthError(400, "invalid_request", "Value passed for the token was invalid.");
      // Rotation: the refresh token used, and the access token it replaces, stop working.
      grant.revoked = true;
      return this.#issue(grant.userId, grant.scopes);
    }
    return oauthError(400, "unsupported_grant_type", `grant_type ${grantType} is not supported`);
  }

  #issue(userId: string, scopes: string[]): FakeAnswer {
    const grant: FakeGrant = {
      userId,
      scopes,
      accessToken: token(),
      refreshToken: scopes.includes("offline.access") ? token() : null,
      accessExpiresAt: this.#now() + this.accessTokenSeconds * 1000,
      revoked: false,
    };
    this.grants.push(grant);
    return {
      status: 200,
      json: {
        token_type: "bearer",
        expires_in: this.accessTokenSeconds,
        access_token: grant.accessToken,
        scope: scopes.join(" "),
        ...(grant.refreshToken && { refresh_token: grant.refreshToken }),
      },
    };
  }

  #client(request: FakeRequest): FakeApp | null {
    const header = request.headers.get("authorization") ?? "";
    if (!header.startsWith("Basic ")) return null;
    const [id, secret] = Buffer.from(header.slice(6), "base64")
      .toString("utf8")
      .split(":")
      .map(decodeURIComponent);
    const app = this.apps.get(id ?? "");
    return app && app.clientSecret === secret ? app : null;
  }
}

function oauthError(status: number, error: string, description: string): FakeAnswer {
  return { status, json: { error, error_description: description } };
}

function page(status: number, title: string, message: string, extra = ""): FakeAnswer {
  return {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
    text: `<!doctype html><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${extra}`,
  };
}
