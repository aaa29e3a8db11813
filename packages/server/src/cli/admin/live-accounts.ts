import { type Account, createService, HttpError, type Store, type UserRecord } from "@socialpub/core";
import { networkAdapters, networkAddressesFromEnv } from "../../live/network-adapters.ts";
import { createLogger } from "../../logging.ts";
import { CliError } from "../errors.ts";
import { requireKeyring } from "./secret-keyring.ts";

export interface LiveConnectSettings {
  /** --secret-key-file; else SOCIALPUB_SECRET_KEY. */
  secretKeyFile?: string | undefined;
  /** --allow-private-urls: a PDS or Discord webhook on loopback or a private network (local testing). */
  allowPrivateUrls: boolean;
}

/**
 * Connects a live account for `user` through the service's own connect (the path POST
 * /accounts/connect takes with a live key): the network checks the credentials at once and they are
 * sealed with the server's secret key. The adapters are addressed by the same SOCIALPUB_*_API_URL
 * settings as the server's. `body` holds the request fields, the secret among them.
 */
export async function connectLiveAccount(
  store: Store,
  user: UserRecord,
  body: Record<string, unknown>,
  settings: LiveConnectSettings,
): Promise<{ created: boolean; account: Account }> {
  const keyring = requireKeyring(settings.secretKeyFile, "connecting a live account");
  const service = createService({
    store,
    // Only unexpected failures are logged (without credentials); the answer itself is printed.
    logger: createLogger({ level: "error", destination: process.stderr }),
    liveAdapters: networkAdapters(networkAddressesFromEnv()),
    credentialKeyring: keyring,
    allowPrivateWebhookUrls: settings.allowPrivateUrls,
    rateLimit: false,
  });
  try {
    return await service.connectLiveAccount(user, body);
  } catch (error) {
    if (error instanceof HttpError) throw new CliError(error.message);
    throw error;
  } finally {
    await service.close();
  }
}
