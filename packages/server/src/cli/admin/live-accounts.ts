import {
  type Account,
  createService,
  HttpError,
  type OAuthConnectStart,
  type Service,
  type Store,
  type UserRecord,
} from "@socialpub/core";
import { environmentWithConfig } from "../../live/config-file.ts";
import { networkAdapters, networkSettingsFromEnv } from "../../live/network-adapters.ts";
import { publicUrlFrom } from "../../live/public-url.ts";
import { createLogger } from "../../logging.ts";
import { CliError } from "../errors.ts";
import { requireKeyring } from "./secret-keyring.ts";

export interface LiveConnectSettings {
  /** --db: where a server without a configured key keeps its key file. */
  db: string;
  /** --secret-key-file; else SOCIALPUB_SECRET_KEY. */
  secretKeyFile?: string | undefined;
  /** --allow-private-urls: a PDS or Discord webhook on loopback or a private network (local testing). */
  allowPrivateUrls: boolean;
  /** --config (or SOCIALPUB_CONFIG): the networks' settings from a file, as the server reads them. */
  config?: string | undefined;
}

/**
 * Connects a live account for `user` through the service's own connect (the path POST
 * /accounts/connect takes with a live key): the network checks the credentials at once and they are
 * sealed with the server's secret key. The adapters are addressed by the same SOCIALPUB_*_API_URL
 * settings as the server's. `body` holds the request fields, the secret among them.
 */
export function connectLiveAccount(
  store: Store,
  user: UserRecord,
  body: Record<string, unknown>,
  settings: LiveConnectSettings,
): Promise<{ created: boolean; account: Account }> {
  return withLiveService(store, settings, "connecting a live account", (service) =>
    service.connectLiveAccount(user, body),
  );
}

/**
 * Starts an OAuth connect for `user` (what POST /accounts/connect answers with a live key for a
 * network that connects through its own page): the pending connect is kept in the database, sealed
 * with the server's secret key, and the authorize URL comes back to be opened in a browser. The
 * network then sends the browser to SOCIALPUB_PUBLIC_URL's callback, so a server on this database,
 * with the same secret key and public URL, finishes it.
 */
export function startLiveOAuthConnect(
  store: Store,
  user: UserRecord,
  body: Record<string, unknown>,
  settings: LiveConnectSettings,
): Promise<OAuthConnectStart> {
  return withLiveService(store, settings, "starting a connect", (service) =>
    service.startOAuthConnect(user, body),
  );
}

async function withLiveService<T>(
  store: Store,
  settings: LiveConnectSettings,
  doing: string,
  work: (service: Service) => Promise<T>,
): Promise<T> {
  const keyring = requireKeyring(settings.db, settings.secretKeyFile, doing);
  const env = environmentWithConfig(settings.config);
  const publicUrl = publicUrlFrom(env.SOCIALPUB_PUBLIC_URL);
  const service = createService({
    store,
    // Only unexpected failures are logged (without credentials); the answer itself is printed.
    logger: createLogger({ level: "error", destination: process.stderr }),
    liveAdapters: networkAdapters(networkSettingsFromEnv(env)),
    credentialKeyring: keyring,
    ...(publicUrl && { publicUrl }),
    allowPrivateWebhookUrls: settings.allowPrivateUrls,
    rateLimit: false,
  });
  try {
    return await work(service);
  } catch (error) {
    if (error instanceof HttpError) throw new CliError(error.message);
    throw error;
  } finally {
    await service.close();
  }
}
