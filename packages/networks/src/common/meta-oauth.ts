import { type ConnectedAccount, type Credentials, NetworkError, type OAuthSteps } from "@socialpub/core";
import { describeFetchFailure } from "./fetch-failure.ts";
import { type MetaGraphConfig, metaCall } from "./meta-graph.ts";
import { authorizeUrl } from "./oauth-code.ts";

/*
 * The login of Meta's Threads and Instagram APIs: an authorize page (scopes comma-separated; Meta
 * documents no PKCE for them), a code traded at the token endpoint for a short-lived token (one hour),
 * which is traded at once for a long-lived one (60 days). A long-lived token can be renewed only while
 * it still works and only by calling with it; following the project's decision, the server does not
 * renew it: the account turns `expiring` 7 days before it ends and the user connects again.
 */

export interface MetaOAuthConfig {
  graph: MetaGraphConfig;
  /** The page where the user grants access (https://threads.net/oauth/authorize, …). */
  authorizeUrl: string;
  /** Where the code is traded for a short-lived token (form POST, client secret in the body). */
  tokenUrl: string;
  /** Where a short-lived token is traded for a long-lived one (GET). */
  longLivedUrl: string;
  /** th_exchange_token or ig_exchange_token. */
  longLivedGrant: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
  missingSettings: readonly string[];
  /** Reads the account the token belongs to: its id, handle and followers. */
  me(token: string, signal: AbortSignal): Promise<{ id: string; username: string; followers: number }>;
}

export function metaOAuth(config: MetaOAuthConfig): OAuthSteps {
  const { graph } = config;
  const refuse = (status: number, body: unknown) => {
    const b = (body ?? {}) as Record<string, unknown>;
    const e = (b.error ?? b) as Record<string, unknown>;
    const words = [e.error_message, e.message, e.error_description, b.error_message].filter(
      (s): s is string => typeof s === "string",
    );
    return new NetworkError(
      graph.network,
      status === 429 || status >= 500 ? "retry" : "reauth",
      `${graph.name} refused the grant (${graph.name} said: ${status}${words.length > 0 ? ` ${words[0]}` : ""}); connect the account again.`,
      { status },
    );
  };
  const tokenCall = async (url: URL, init: RequestInit, signal: AbortSignal) => {
    let response: Response;
    try {
      response = await graph.fetch(url, { ...init, signal });
    } catch (cause) {
      const failure = describeFetchFailure(cause, signal);
      throw new NetworkError(
        graph.network,
        "retry",
        `${graph.name}'s token endpoint ${failure.reason}; try again later.`,
        {
          cause,
        },
      );
    }
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    // Instagram answers the code exchange as {data: [{access_token, user_id, permissions}]}.
    const answer = (Array.isArray(body?.data) ? body.data[0] : body) as Record<string, unknown> | null;
    if (!response.ok || typeof answer?.access_token !== "string") throw refuse(response.status, body);
    return answer as { access_token: string; expires_in?: number };
  };
  return {
    missingSettings: config.missingSettings,
    pkce: false,
    authorizeUrl: (request) =>
      authorizeUrl(
        { authorizeUrl: config.authorizeUrl, client: { clientId: config.clientId }, scopes: config.scopes },
        request,
        { scopeSeparator: "," },
      ),
    async exchange({ code, redirectUri, signal }): Promise<ConnectedAccount> {
      const short = await tokenCall(
        new URL(config.tokenUrl),
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
          body: new URLSearchParams({
            client_id: config.clientId,
            client_secret: config.clientSecret,
            grant_type: "authorization_code",
            redirect_uri: redirectUri,
            code,
          }).toString(),
        },
        signal,
      );
      const longUrl = new URL(config.longLivedUrl);
      longUrl.search = new URLSearchParams({
        grant_type: config.longLivedGrant,
        client_secret: config.clientSecret,
        access_token: short.access_token,
      }).toString();
      const long = await tokenCall(
        longUrl,
        { method: "GET", headers: { accept: "application/json" } },
        signal,
      );
      const me = await config.me(long.access_token, signal);
      return {
        handle: `@${me.username}`,
        followers: me.followers,
        health: "healthy",
        credentials: {
          access_token: long.access_token,
          // No refresh token: the long-lived token is not renewed by the server (see above).
          refresh_token: null,
          expires_at: typeof long.expires_in === "number" ? graph.now() + long.expires_in * 1000 : null,
          user_id: me.id,
          username: me.username,
        },
      };
    },
    async refresh(): Promise<Credentials> {
      throw new NetworkError(
        graph.network,
        "reauth",
        `${graph.name}'s grant cannot be renewed by the server; connect the account again.`,
      );
    },
  };
}

/** GET /me with the token: the account's id and username (and followers where asked for). */
export async function metaMe(
  graph: MetaGraphConfig,
  token: string,
  fields: string,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  return metaCall(graph, token, "GET", "/me", { fields }, signal);
}
