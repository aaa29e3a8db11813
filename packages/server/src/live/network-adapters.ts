import type { NetworkAdapters } from "@socialpub/core";
import { blueskyAdapter, discordAdapter, telegramAdapter } from "@socialpub/networks";

/**
 * Where the live adapters send their requests. Each network's API can be pointed elsewhere (a test
 * peer, a compatible self-hosted service); unset, each goes to the network itself.
 */
export interface NetworkAddresses {
  /** SOCIALPUB_BLUESKY_SERVICE_URL: the PDS a connect without `service` logs in to (https://bsky.social). */
  blueskyService?: string | undefined;
  /** SOCIALPUB_TELEGRAM_API_URL (https://api.telegram.org). */
  telegramApi?: string | undefined;
  /** SOCIALPUB_DISCORD_API_URL (https://discord.com): Discord webhook URLs must be on its host. */
  discordApi?: string | undefined;
}

/** The adapters live keys publish through: Bluesky, Telegram and Discord. */
export function networkAdapters(addresses: NetworkAddresses = {}): NetworkAdapters {
  return {
    bluesky: blueskyAdapter({
      ...(addresses.blueskyService && { defaultService: addresses.blueskyService }),
    }),
    telegram: telegramAdapter({ ...(addresses.telegramApi && { apiUrl: addresses.telegramApi }) }),
    discord: discordAdapter({ ...(addresses.discordApi && { apiUrl: addresses.discordApi }) }),
  };
}

/** The addresses as the environment sets them. */
export function networkAddressesFromEnv(env: NodeJS.ProcessEnv = process.env): NetworkAddresses {
  return {
    blueskyService: env.SOCIALPUB_BLUESKY_SERVICE_URL || undefined,
    telegramApi: env.SOCIALPUB_TELEGRAM_API_URL || undefined,
    discordApi: env.SOCIALPUB_DISCORD_API_URL || undefined,
  };
}
