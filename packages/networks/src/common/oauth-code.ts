import type { OAuthSteps } from "@socialpub/core";
import { type OAuthClient, requestToken, type TokenAnswer } from "./oauth-token.ts";

/*
 * The two halves of OAuth 2.0's authorization code flow (RFC 6749 §4.1) that every network spells the
 * same way: the authorize page's URL, and the trade of the code the callback brought for a grant. With
 * PKCE (RFC 7636, S256) the challenge goes on the URL and the verifier with the code. A network adds
 * what it wants besides (Google's access_type, Reddit's duration, X's client_id in the form).
 */

export interface AuthorizePage {
  /** The network's authorize page. */
  authorizeUrl: string;
  /** The app's id, under the name the network reads (client_id, or TikTok's client_key). */
  client: Pick<OAuthClient, "clientId" | "clientIdField">;
  scopes: readonly string[];
}

export interface CodeFlowOptions {
  /** Whether the network takes PKCE; the OAuthSteps' `pkce` says the same. */
  pkce?: boolean;
  /** How the network separates scopes: a space (RFC 6749 §3.3), or a comma (Meta, Pinterest, TikTok). */
  scopeSeparator?: " " | ",";
  /** Parameters the network adds to its authorize URL or to the code's exchange. */
  extra?: Readonly<Record<string, string>>;
}

/** The URL of the network's page where the user grants access. */
export function authorizeUrl(
  page: AuthorizePage,
  { state, redirectUri, codeChallenge }: Parameters<OAuthSteps["authorizeUrl"]>[0],
  options: CodeFlowOptions = {},
): string {
  const url = new URL(page.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: "code",
    [page.client.clientIdField ?? "client_id"]: page.client.clientId,
    redirect_uri: redirectUri,
    scope: page.scopes.join(options.scopeSeparator ?? " "),
    state,
    ...(options.pkce && { code_challenge: codeChallenge ?? "", code_challenge_method: "S256" }),
    ...options.extra,
  }).toString();
  return url.href;
}

/** Trades the authorization code (and the PKCE verifier) for a grant at the token endpoint. */
export function exchangeCode(
  client: OAuthClient,
  { code, redirectUri, codeVerifier, signal }: Parameters<OAuthSteps["exchange"]>[0],
  options: Omit<CodeFlowOptions, "scopeSeparator"> = {},
): Promise<TokenAnswer> {
  return requestToken(
    client,
    {
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      ...(options.pkce && { code_verifier: codeVerifier ?? "" }),
      ...options.extra,
    },
    signal,
  );
}
