import { type NetworkAdapter, NetworkError, type NetworkId } from "@socialpub/core";
import type { OAuthClient } from "./oauth-token.ts";

/*
 * What the adapters of the OAuth networks share: the options a server gives each one (where the
 * network is, the app registered on it, what to ask for), the configuration their OAuth steps take,
 * and a connect that says the network is connected through its own page, not with pasted credentials.
 */

/** Options every OAuth network's adapter takes; each adds where its authorize page is and its own. */
export interface OAuthAdapterOptions {
  /** The API's base URL (the server reads SOCIALPUB_<NETWORK>_API_URL). */
  apiUrl?: string;
  /** The app's OAuth client id and secret, from the network's developer console. */
  clientId?: string;
  clientSecret?: string;
  /** What the server asks the user for; each network has its defaults. */
  scopes?: readonly string[];
  /** The settings the server lacks (named in the 400 a connect answers); empty when configured. */
  missingSettings?: readonly string[];
  fetch?: typeof fetch;
  now?: () => number;
}

/** What a network's OAuth steps take: its authorize page, its token endpoint's client, and its API. */
export interface OAuthStepsConfig<Api> {
  authorizeUrl: string;
  client: OAuthClient;
  scopes: readonly string[];
  missingSettings: readonly string[];
  api: Api;
}

/** The network's OAuth steps' configuration from the adapter's options. */
export function oauthStepsConfig<Api>(
  options: OAuthAdapterOptions,
  steps: {
    authorizeUrl: string;
    client: Omit<OAuthClient, "clientId" | "clientSecret" | "fetch">;
    defaultScopes: readonly string[];
    api: Api & { fetch: typeof fetch };
  },
): OAuthStepsConfig<Api> {
  return {
    authorizeUrl: steps.authorizeUrl,
    client: {
      ...steps.client,
      clientId: options.clientId ?? "",
      clientSecret: options.clientSecret ?? "",
      fetch: steps.api.fetch,
    },
    scopes: options.scopes ?? steps.defaultScopes,
    missingSettings: options.missingSettings ?? [],
    api: steps.api,
  };
}

/** A base URL as configured, without the trailing slashes a user may have typed. */
export const baseUrl = (configured: string | undefined, fallback: string): string =>
  (configured ?? fallback).replace(/\/+$/, "");

/**
 * The connect of a network that has no credentials to paste: a connect with a live key starts the
 * OAuth flow instead, so this answers only a caller that asked for the wrong thing. `where` is the
 * network's page the user is sent to ("X's own page").
 */
export function connectThroughOAuth(
  network: NetworkId,
  name: string,
  where: string,
): NetworkAdapter["connect"] {
  return async () => {
    throw new NetworkError(network, "refused", `${name} connects through ${where} (OAuth).`);
  };
}
