// The reference service run inside the job for direct mode: an in-memory store, a live key made for
// this run, a secret key that lives only in this process, and the networks' adapters. Posts go through
// it exactly as they would through a deployed service (the same adaptation per network, the same
// publishing rules), over its fetch handler: nothing listens on a port.
import { randomBytes } from "node:crypto";
import {
  type AccountSession,
  accountBinding,
  CredentialKeyring,
  type Credentials,
  createService,
  generateApiKey,
  HttpError,
  MemoryStore,
  NETWORK_RULES,
  type NetworkAdapter,
  type PublishKeyFor,
  provisionUser,
  type Service,
  SocialPublishClient,
  silentLogger,
  type UserRecord,
} from "@socialpub/core";
import { settingVariable } from "@socialpub/networks/describe";
import type { DirectCredentials, DirectNetwork } from "./credentials.ts";
import { connectBody, inJobNetworksWithCredentials, requiredInputsText } from "./credentials.ts";
import { DIRECT_DEFINITIONS } from "./networks.ts";

/** How long one network may take to publish: the job waits for every network's one attempt. */
const ATTEMPT_TIMEOUT_MS = 60_000;

export interface InJobService {
  /** A client of the in-job service, as a deployed service's client would be. */
  client: SocialPublishClient;
  /** The account session of a connected network, for reading back what an earlier run posted. */
  sessionFor(network: DirectNetwork): Promise<AccountSession | undefined>;
  adapter(network: DirectNetwork): NetworkAdapter;
  close(): Promise<void>;
}

export interface InJobOptions {
  env: NodeJS.ProcessEnv;
  publishKey: PublishKeyFor;
}

/**
 * Starts the service and connects every network that has credentials; the networks check them at once.
 * Throws when one refuses them (its reason, naming the inputs), before anything is posted.
 */
export async function startInJobService(
  credentials: DirectCredentials,
  options: InJobOptions,
): Promise<InJobService> {
  const { env } = options;
  const adapters = directAdapters(env);
  const store = new MemoryStore();
  const apiKey = generateApiKey("live");
  const { user } = await provisionUser(store, { key: apiKey, plan: "studio" });
  const keyring = new CredentialKeyring(new Uint8Array(randomBytes(32)));
  const service = createService({
    store,
    logger: silentLogger,
    rateLimit: false,
    liveAdapters: Object.fromEntries(adapters),
    credentialKeyring: keyring,
    // A Bluesky service address is the user's: it must be public, as on the server, unless the
    // environment says this is a test against local peers.
    allowPrivateWebhookUrls: env.SOCIALPUB_ALLOW_PRIVATE_URLS === "1",
    publishKey: options.publishKey,
    // One attempt per network, and the post's answer waits for all of them: the job ends after this
    // step, so a retry an hour later would never run. A re-run of the job posts where this one failed.
    publishing: {
      waitMs: ATTEMPT_TIMEOUT_MS + 5_000,
      attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
      retryDelaysMs: [],
    },
  });
  await service.start();
  const client = new SocialPublishClient({
    apiKey,
    baseUrl: "http://in-job.socialpub.invalid/api/v1",
    fetch: (request) => service.fetch(request),
    maxRetries: 0,
    timeoutMs: ATTEMPT_TIMEOUT_MS + 30_000,
  });
  const close = async () => {
    await client.close();
    await service.close();
  };
  try {
    for (const network of inJobNetworksWithCredentials(credentials)) {
      await connect(service, user, network, credentials);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    client,
    adapter: (network) => {
      const adapter = adapters.get(network);
      if (!adapter) throw new Error(`Direct mode has no adapter for ${network}.`);
      return adapter;
    },
    async sessionFor(network) {
      const account = await store.getAccount(user.id, "live", network);
      if (!account?.credentials) return undefined;
      const binding = accountBinding(user.id, "live", network);
      const opened = JSON.parse(keyring.open(account.credentials, binding)) as Credentials;
      return {
        handle: account.handle,
        credentials: opened,
        async saveCredentials(next) {
          await store.setAccountCredentials(
            user.id,
            "live",
            network,
            keyring.seal(JSON.stringify(next), binding),
          );
        },
      };
    },
    close,
  };
}

/**
 * Each direct network's adapter, built from its settings as the server reads them: the `url` settings
 * of its description, SOCIALPUB_<NETWORK>_<NAME> (SOCIALPUB_TELEGRAM_API_URL points the Bot API at a
 * local stand-in, as the Action's own tests do). They are environment variables, never inputs a
 * workflow could set by mistake.
 */
function directAdapters(env: NodeJS.ProcessEnv): Map<DirectNetwork, NetworkAdapter> {
  const adapters = new Map<DirectNetwork, NetworkAdapter>();
  for (const network of DIRECT_DEFINITIONS) {
    const settings: Record<string, string> = {};
    for (const setting of network.settings) {
      const value = setting.kind === "url" ? env[settingVariable(network.id, setting)] : undefined;
      if (value) settings[setting.option] = value;
    }
    adapters.set(network.id, (network.create as (settings: object) => NetworkAdapter)(settings));
  }
  return adapters;
}

async function connect(
  service: Service,
  user: UserRecord,
  network: DirectNetwork,
  credentials: DirectCredentials,
): Promise<void> {
  const body = connectBody(network, credentials);
  const name = NETWORK_RULES[network].name;
  try {
    await service.connectLiveAccount(user, body);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    // The service's message is the network's reason, with the credentials already taken out of it.
    const reason = error.message.replace(/\s+$/, "");
    throw new DirectConnectError(
      error.status >= 500
        ? `${name} could not be reached to check ${requiredInputsText(network)} (${reason}). Nothing was posted; re-run the job later.`
        : `${name} refused ${requiredInputsText(network)}: ${reason} Nothing was posted; fix the secret and re-run the job.`,
    );
  }
}

/** A network refused the credentials given, or could not be reached to check them. */
export class DirectConnectError extends Error {
  override name = "DirectConnectError";
}
