import type { NetworkId } from "../../contract/networks.ts";
import { NETWORK_RULES } from "../../contract/networks.ts";
import { NetworkError, type OAuthSteps } from "../../networks/adapter.ts";
import type { UserRecord } from "../../store/types.ts";
import type { Caller, ServiceDeps } from "../context.ts";
import { badRequest } from "../http-error.ts";
import { json } from "../responses.ts";
import { codeChallenge, randomToken, stateBinding, stateHash } from "./pkce.ts";

/** How long a user has to grant access on the network's page: 15 minutes. */
export const OAUTH_STATE_TTL_MS = 15 * 60_000;

/** The address the network sends the user back to, as registered on its developer console. */
export function redirectUri(publicUrl: string, platform: NetworkId): string {
  return `${publicUrl.replace(/\/+$/, "")}/api/v1/accounts/callback/${platform}`;
}

/**
 * POST /accounts/connect with a live key for an OAuth network: keeps a pending connect (the state's
 * hash, and the PKCE verifier and the network's fields sealed) and answers 201 with the network's
 * authorize URL. Nothing is connected yet: the callback finishes it (finish-connect.ts). A server
 * without the network's app or its own public address answers 400 naming the missing setting.
 */
export async function startOAuthConnect(
  deps: ServiceDeps,
  caller: Caller,
  platform: NetworkId,
  oauth: OAuthSteps,
  fields: Readonly<Record<string, unknown>>,
): Promise<Response> {
  return json(201, await beginOAuthConnect(deps, caller.user, platform, oauth, fields));
}

/** The 201 answer of an OAuth connect: where to send the person, and until when it can be finished. */
export interface OAuthConnectStart {
  platform: NetworkId;
  authorize_url: string;
  state: string;
  expires_at: string;
}

/**
 * Keeps a pending connect for `user` and answers where to send the person: what the API's connect
 * does, and what an administrator's `accounts connect --live` prints for a network that connects
 * through its own page (the server at the public URL, on the same store, finishes it).
 */
export async function beginOAuthConnect(
  deps: ServiceDeps,
  user: UserRecord,
  platform: NetworkId,
  oauth: OAuthSteps,
  fields: Readonly<Record<string, unknown>>,
): Promise<OAuthConnectStart> {
  const name = NETWORK_RULES[platform].name;
  const missing = [...(deps.publishing.publicUrl ? [] : ["SOCIALPUB_PUBLIC_URL"]), ...oauth.missingSettings];
  if (missing.length > 0) {
    throw badRequest(
      `${name} cannot be connected on this server yet: it needs ${missing.join(" and ")} (see docs/networks.md for what to register on ${name}'s side).`,
    );
  }
  let kept: Record<string, string> = {};
  try {
    kept = oauth.startFields?.(fields) ?? {};
  } catch (err) {
    if (err instanceof NetworkError) throw badRequest(err.message);
    throw err;
  }
  const keyring = deps.publishing.keyring!;
  const now = deps.clock.now();
  const state = randomToken();
  const hash = stateHash(state);
  const verifier = oauth.pkce ? randomToken() : null;
  await deps.store.putOAuthState({
    state_hash: hash,
    user_id: user.id,
    platform,
    secret: keyring.seal(JSON.stringify({ verifier, fields: kept }), stateBinding(hash)),
    created_at: now,
    expires_at: now + OAUTH_STATE_TTL_MS,
  });
  const authorizeUrl = oauth.authorizeUrl({
    state,
    redirectUri: redirectUri(deps.publishing.publicUrl!, platform),
    codeChallenge: verifier === null ? null : codeChallenge(verifier),
  });
  return {
    platform,
    authorize_url: authorizeUrl,
    state,
    expires_at: new Date(now + OAUTH_STATE_TTL_MS).toISOString(),
  };
}
