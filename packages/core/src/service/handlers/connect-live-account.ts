import type { z } from "zod";
import { NETWORK_IDS, NETWORK_RULES } from "../../contract/networks.ts";
import type { ConnectAccountBody } from "../../contract/requests.ts";
import { checkWebhookUrl } from "../../net/public-url.ts";
import {
  type ConnectedAccount,
  type Credentials,
  type NetworkAdapter,
  NetworkError,
} from "../../networks/adapter.ts";
import { followersReadAt } from "../../publishing/follower-refresh.ts";
import { redactCredentials } from "../../publishing/redact.ts";
import type { AccountRecord, UserRecord } from "../../store/types.ts";
import type { KeepAnswer, RequestContext, ServiceDeps } from "../context.ts";
import { badRequest, HttpError } from "../http-error.ts";
import { beginOAuthConnect, type OAuthConnectStart, startOAuthConnect } from "../oauth/start-connect.ts";
import { json } from "../responses.ts";
import { toAccount } from "../serialize.ts";
import { storeLiveAccount } from "./store-live-account.ts";

/** How long the network may take to check credentials before the request answers 502. */
const CONNECT_TIMEOUT_MS = 15_000;

/**
 * The connect fields that name the account or where it lives (the handle, the PDS, the chat, the
 * board…): what the user typed to say which account, said back as given. Every other field (the app
 * password, the bot token, the webhook URL with its token) is a secret, redacted from every message.
 */
const NAMING_FIELDS: ReadonlySet<string> = new Set([
  "handle",
  "service",
  "chat",
  "board",
  "subreddit",
  "page",
]);

/** The secrets among a connect's fields: every string field that does not only name the account. */
function secretsOf(fields: Readonly<Record<string, unknown>>): Credentials {
  return Object.fromEntries(
    Object.entries(fields).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string" && !NAMING_FIELDS.has(entry[0]),
    ),
  );
}

/**
 * POST /accounts/connect with a live key: the network's adapter checks the credentials at once (logs
 * in, reads the chat, fetches the webhook). Good → the account is stored with its credentials sealed
 * (201, or 200 when it replaces the credentials of an account already connected); credentials the
 * network refuses → 400 with its reason; the network unreachable → 502. No credential is ever part of
 * an answer, an event, a log line or an error. A network that connects through OAuth answers 201 with
 * its authorize URL instead (oauth/start-connect.ts).
 */
export async function connectLiveAccount({
  deps,
  caller,
  body,
  keptAnswer,
}: RequestContext<z.output<typeof ConnectAccountBody>>): Promise<Response> {
  const oauth = deps.publishing.adapterFor("live", body.platform)?.oauth;
  if (oauth && deps.publishing.keyring) {
    const { platform, ...fields } = body;
    return startOAuthConnect(deps, caller, platform, oauth, fields);
  }
  const { created, account } = await connectLiveAccountFor(deps, caller.user, body, keptAnswer);
  return json(created ? 201 : 200, toAccount(account));
}

/**
 * What POST /accounts/connect does with a live key, for `user`: also what an administrator's
 * `accounts connect --live` runs, so the command checks, seals, limits and announces exactly as the
 * API does. Throws HttpError with the answer's status and a message free of credentials.
 */
export async function connectLiveAccountFor(
  deps: ServiceDeps,
  user: UserRecord,
  body: z.output<typeof ConnectAccountBody>,
  keptAnswer: KeepAnswer = () => undefined,
): Promise<{ created: boolean; account: AccountRecord }> {
  const { platform, ...fields } = body;
  const name = NETWORK_RULES[platform].name;
  const adapter = liveAdapterFor(deps, platform);
  if (adapter.oauth) {
    // The user grants access on the network's own page, in a browser: only the API can start that.
    throw badRequest(
      `${name} connects through ${name}'s own page: start it with POST /accounts/connect and a live key, then open the authorize_url it answers.`,
    );
  }
  const secrets = secretsOf(fields);
  const connected = await checkWithNetwork(deps, platform, name, fields, (text) =>
    redactCredentials(text, secrets),
  );
  const stored = await storeLiveAccount(deps, user, platform, connected, keptAnswer);
  // The network read the followers just now: the listing need not read them again soon.
  followersReadAt(deps, stored.account, deps.clock.now());
  return stored;
}

/**
 * Starts an OAuth connect for `user` as POST /accounts/connect with a live key does: what an
 * administrator's `accounts connect --live` runs for a network that connects through its own page.
 * Throws HttpError with the status and message the API would answer.
 */
export async function startOAuthConnectFor(
  deps: ServiceDeps,
  user: UserRecord,
  body: z.output<typeof ConnectAccountBody>,
): Promise<OAuthConnectStart> {
  const { platform, ...fields } = body;
  const adapter = liveAdapterFor(deps, platform);
  if (!adapter.oauth) {
    const name = NETWORK_RULES[platform].name;
    throw badRequest(`${name} connects with credentials checked at once, not through ${name}'s own page.`);
  }
  return beginOAuthConnect(deps, user, platform, adapter.oauth, fields);
}

/** The network's live adapter, on a server able to keep its credentials; else the API's refusal. */
function liveAdapterFor(deps: ServiceDeps, platform: AccountRecord["platform"]): NetworkAdapter {
  const adapter = deps.publishing.adapterFor("live", platform);
  if (!adapter) {
    const live = NETWORK_IDS.filter((id) => deps.publishing.adapterFor("live", id) !== undefined);
    throw badRequest(
      `${NETWORK_RULES[platform].name} cannot be connected with a live key on this server${live.length > 0 ? `; live accounts can be connected for ${live.join(", ")}` : ""}.`,
    );
  }
  if (!deps.publishing.keyring) {
    throw new HttpError(
      503,
      "This server has no secret key to keep network credentials with, so live accounts cannot be connected; start it with SOCIALPUB_SECRET_KEY or --secret-key-file.",
    );
  }
  return adapter;
}

async function checkWithNetwork(
  deps: ServiceDeps,
  platform: AccountRecord["platform"],
  name: string,
  fields: Readonly<Record<string, unknown>>,
  redact: (text: string) => string,
): Promise<ConnectedAccount> {
  const adapter = deps.publishing.adapterFor("live", platform)!;
  try {
    return await adapter.connect(fields, {
      signal: AbortSignal.any([deps.publishing.shutdown, AbortSignal.timeout(CONNECT_TIMEOUT_MS)]),
      checkUserUrl: (value, field) => checkUserUrl(deps, value, field),
    });
  } catch (err) {
    if (err instanceof HttpError) throw new HttpError(err.status, redact(err.message));
    if (err instanceof NetworkError) {
      const message = redact(err.message);
      if (err.kind === "refused" || err.kind === "reauth") throw badRequest(message);
      throw new HttpError(502, message);
    }
    deps.logger.error(
      { platform, error: redact(err instanceof Error ? err.message : String(err)) },
      "checking credentials with the network failed unexpectedly",
    );
    throw new HttpError(502, `${name} could not check the credentials; try again later.`);
  }
}

/** What an address a user gives at connect is, by its field, as a refusal of it says. */
const ADDRESS_NAMES: Readonly<Record<string, string>> = {
  service: "the Bluesky PDS address",
  webhook_url: "the Discord webhook URL",
};

/**
 * The public-address rule of webhook URLs, for a URL a user gave in `field`: its refusals name the
 * field, and one of a private address says what the address is and how a server for local testing
 * allows it (--allow-private-urls, on `start` and on `accounts connect`).
 */
async function checkUserUrl(deps: ServiceDeps, value: string, field: string): Promise<URL> {
  try {
    return new URL(await checkWebhookUrl(value, deps.webhooks.allowPrivateUrls, deps.webhooks.lookupHost));
  } catch (err) {
    if (err instanceof HttpError) {
      const what = ADDRESS_NAMES[field] ?? "this address";
      throw new HttpError(
        err.status,
        err.message
          .replace(/^url\b/, field)
          .replace(/\burl's\b/, `${field}'s`)
          .replace(
            /; webhooks go to public addresses.*$/,
            `; ${what} must be a public one. For local testing, start the server (or run accounts connect) with --allow-private-urls.`,
          ),
      );
    }
    throw err;
  }
}
