import { type Credentials, NetworkError, type NetworkId } from "@socialpub/core";
import { describeFetchFailure } from "./fetch-failure.ts";

/*
 * The token endpoint of an OAuth 2.0 network (RFC 6749 §4.1.3 and §6): a form POST with the client's
 * credentials in Basic auth (or in the form, where a network wants them there), answered with an access token, its lifetime, and perhaps a refresh token.
 * Shared by the networks that follow the RFC closely; the grant is kept in the credentials under the
 * names the service reads (OAuthGrant).
 */

export interface OAuthClient {
  network: NetworkId;
  /** The network's name as errors say it. */
  name: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** How the client authenticates: Basic auth (the RFC's preference; default) or client_id/client_secret in the form (LinkedIn, Facebook). */
  clientAuth?: "basic" | "form";
  /** The form field naming the client when it authenticates in the form: client_id, or TikTok's client_key. */
  clientIdField?: string;
  /** Headers the network wants on every request (Reddit's descriptive User-Agent). */
  headers?: Readonly<Record<string, string>>;
  fetch: typeof fetch;
}

export interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
}

/**
 * The grant as credentials keep it; `expires_at` counted from `now`. An `expires_in` that is not a
 * positive number of seconds (negative, zero, not a number) says nothing: the end is left unknown, as
 * when the answer leaves it out, and the token is refreshed once the network refuses it.
 */
export function grantOf(answer: TokenAnswer, now: number): Credentials {
  const seconds = answer.expires_in;
  return {
    access_token: answer.access_token,
    refresh_token: answer.refresh_token ?? null,
    expires_at:
      typeof seconds === "number" && Number.isFinite(seconds) && seconds > 0 ? now + seconds * 1000 : null,
    scope: answer.scope ?? null,
  };
}

/**
 * Trades the stored refresh token for a new grant (RFC 6749 §6). Networks that rotate answer a new
 * refresh token, which replaces the old one; those that do not (or do not always) answer none, and the
 * one in hand stays good, so it is kept. `extra` carries what a network wants besides (X: client_id).
 */
export async function refreshGrant(
  client: OAuthClient,
  credentials: Credentials,
  now: () => number,
  signal: AbortSignal,
  extra: Record<string, string> = {},
): Promise<Credentials> {
  const answer = await requestToken(
    client,
    { grant_type: "refresh_token", refresh_token: String(credentials.refresh_token ?? ""), ...extra },
    signal,
  );
  const grant = grantOf(answer, now());
  return {
    ...credentials,
    ...grant,
    refresh_token: grant.refresh_token ?? credentials.refresh_token ?? null,
  };
}

/**
 * Posts `params` to the token endpoint. The network's refusal of a code or refresh token (400
 * invalid_grant / invalid_request, 401) is `reauth`: the user must grant access again; a refused client
 * is `refused` (the server's app settings are wrong); 429 and 5xx are `retry`.
 */
export async function requestToken(
  client: OAuthClient,
  params: Record<string, string>,
  signal: AbortSignal,
): Promise<TokenAnswer> {
  const headers: Record<string, string> = {
    ...client.headers,
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  const form = new URLSearchParams(params);
  if (client.clientAuth === "form") {
    form.set(client.clientIdField ?? "client_id", client.clientId);
    form.set("client_secret", client.clientSecret);
  } else {
    const basic = Buffer.from(
      `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
    ).toString("base64");
    headers.authorization = `Basic ${basic}`;
  }
  let response: Response;
  try {
    response = await client.fetch(client.tokenUrl, {
      method: "POST",
      headers,
      body: form.toString(),
      signal,
    });
  } catch (cause) {
    const failure = describeFetchFailure(cause, signal);
    throw new NetworkError(
      client.network,
      "retry",
      `${client.name}'s token endpoint ${failure.reason}; try again later.`,
      { cause },
    );
  }
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.ok && body && typeof body.access_token === "string") return body as unknown as TokenAnswer;
  // Meta answers `{error: {message, type, code}}` rather than RFC 6749's `{error, error_description}`.
  const nested =
    body?.error && typeof body.error === "object" ? (body.error as Record<string, unknown>) : undefined;
  const code =
    typeof body?.error === "string"
      ? body.error
      : typeof nested?.type === "string"
        ? nested.type
        : `HTTP ${response.status}`;
  // RFC 6749's error_description, or the `message` of networks that answer their own error shape (Pinterest).
  const text =
    body?.error_description ??
    nested?.message ??
    (typeof body?.error === "string" ? undefined : body?.message);
  const description = typeof text === "string" ? `: ${text}` : "";
  const said = `(${client.name} said: ${code}${description})`;
  if (response.status === 429 || response.status >= 500) {
    throw new NetworkError(
      client.network,
      "retry",
      `${client.name} could not issue a token now ${said}; try again later.`,
      {
        status: response.status,
      },
    );
  }
  if (code === "invalid_client" || code === "unauthorized_client") {
    throw new NetworkError(
      client.network,
      "refused",
      `${client.name} does not accept this server's app (client id and secret) ${said}; check the server's ${client.network.toUpperCase()} client settings.`,
      { status: response.status },
    );
  }
  throw new NetworkError(
    client.network,
    "reauth",
    `${client.name} refused the grant ${said}; connect the account again.`,
    { status: response.status },
  );
}
