import { isNetworkId, NETWORK_RULES } from "../../contract/networks.ts";
import { NetworkError } from "../../networks/adapter.ts";
import { redactCredentials } from "../../publishing/redact.ts";
import type { RequestContext } from "../context.ts";
import { storeLiveAccount } from "../handlers/store-live-account.ts";
import { HttpError } from "../http-error.ts";
import { stateBinding, stateHash } from "./pkce.ts";
import { resultPage } from "./result-page.ts";
import { redirectUri } from "./start-connect.ts";

/** How long the network may take to trade the code for tokens. */
const EXCHANGE_TIMEOUT_MS = 15_000;

/**
 * GET /accounts/callback/{platform}: where the network sends the user back. No API key: the state,
 * single-use and 15 minutes long, is the credential, and it names the user who started the connect.
 * Trades the code for tokens (with the PKCE verifier), stores the account with its tokens sealed, sends
 * account.connected, and shows a page saying what happened; a refusal (by the user, by the network,
 * or by the plan) is shown in plain words and connects nothing.
 */
export async function finishOAuthConnect({ deps, params, url }: RequestContext): Promise<Response> {
  const platform = params.platform!;
  const oauth = isNetworkId(platform) ? deps.publishing.adapterFor("live", platform)?.oauth : undefined;
  if (!isNetworkId(platform) || !oauth) {
    return resultPage(404, "Not connected", "This server does not connect that network through its site.");
  }
  const name = NETWORK_RULES[platform].name;
  const failed = (status: number, message: string) =>
    resultPage(status, `${name} was not connected`, message);
  const startAgain = "Start the connect again from the dashboard, the CLI or the API.";
  const state = url.searchParams.get("state");
  if (!state) return failed(400, `This address is missing the state of a connect. ${startAgain}`);
  const hash = stateHash(state);
  const pending = await deps.store.takeOAuthState(hash, deps.clock.now());
  if (!pending || pending.platform !== platform) {
    return failed(
      400,
      `This connect link was already used, is older than 15 minutes, or is not for ${name}. ${startAgain}`,
    );
  }
  const refusal = url.searchParams.get("error");
  if (refusal !== null) {
    const said = url.searchParams.get("error_description");
    const why =
      refusal === "access_denied"
        ? `Access was not granted on ${name}'s page, so nothing was connected.`
        : `${name} did not grant access (it said: ${refusal}${said ? `: ${said}` : ""}).`;
    return failed(400, `${why} ${startAgain}`);
  }
  const code = url.searchParams.get("code");
  if (!code) return failed(400, `${name} sent back no authorization code. ${startAgain}`);

  const keyring = deps.publishing.keyring;
  const user = await deps.store.getUser(pending.user_id);
  if (!keyring || !user) return failed(400, `The connect can no longer be finished here. ${startAgain}`);
  const { verifier, fields } = JSON.parse(keyring.open(pending.secret, stateBinding(hash))) as {
    verifier: string | null;
    fields: Record<string, string>;
  };
  const redact = (text: string) => redactCredentials(text, { code, state, verifier });
  let connected: Awaited<ReturnType<typeof oauth.exchange>>;
  try {
    connected = await oauth.exchange({
      code,
      codeVerifier: verifier,
      fields,
      redirectUri: redirectUri(deps.publishing.publicUrl!, platform),
      signal: AbortSignal.any([deps.publishing.shutdown, AbortSignal.timeout(EXCHANGE_TIMEOUT_MS)]),
    });
  } catch (err) {
    if (err instanceof NetworkError) {
      return failed(err.kind === "retry" ? 502 : 400, `${redact(err.message)} ${startAgain}`);
    }
    deps.logger.error(
      { platform, error: redact(err instanceof Error ? err.message : String(err)) },
      "finishing an OAuth connect failed unexpectedly",
    );
    return failed(502, `${name} could not be reached to finish the connect. ${startAgain}`);
  }
  try {
    // The callback carries no key: its user is the one who started the connect.
    await storeLiveAccount(deps, user, platform, connected, () => undefined);
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) return failed(400, err.message);
    throw err;
  }
  return resultPage(
    200,
    `${name} connected`,
    `${connected.handle} is connected to socialpub and can be published to. You can close this tab.`,
  );
}
