import { API_KEY_PATTERN, isNetworkId, NETWORK_IDS, type NetworkId, PLAN_NAMES } from "@socialpub/core";
import { InvalidArgumentError, Option } from "commander";
import { LOG_LEVELS } from "../logging.ts";

export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 8787;
export const DEFAULT_DB = ".data/socialpub.db";

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new InvalidArgumentError("must be a whole number from 0 to 65535 (0 picks a free port).");
  }
  return port;
}

export function parseNonNegativeInteger(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError("must be a whole number, 0 or more.");
  }
  return Number(value);
}

export function parseNetwork(value: string): NetworkId {
  if (!isNetworkId(value)) throw new InvalidArgumentError(`must be one of ${NETWORK_IDS.join(", ")}.`);
  return value;
}

/** The reference service issues test keys only. */
export function parseTestKey(value: string): string {
  if (!value.startsWith("sp_test_") || !API_KEY_PATTERN.test(value)) {
    throw new InvalidArgumentError("must be sp_test_ followed by at least 32 letters and digits.");
  }
  return value;
}

/** on/off switches given as a value (`--dashboard off`, `SOCIALPUB_DASHBOARD=0`). */
export function parseSwitch(value: string): boolean {
  const normalized = value.trim().toLowerCase();
  if (["on", "true", "1", "yes"].includes(normalized)) return true;
  if (["off", "false", "0", "no"].includes(normalized)) return false;
  throw new InvalidArgumentError("must be on or off (or true/false, 1/0, yes/no).");
}

export function nonEmpty(value: string): string {
  if (value.trim() === "") throw new InvalidArgumentError("must not be empty.");
  return value;
}

/** `--db`, shared by every command that opens the database. */
export const dbOption = () =>
  new Option(
    "--db <path-or-url>",
    'SQLite database file, ":memory:", or a PostgreSQL URL (postgres://user:password@host:5432/database) for several instances',
  )
    .env("SOCIALPUB_DB")
    .default(DEFAULT_DB);

/** `--user`, for commands that act on one user. */
export const userOption = () =>
  new Option("--user <id-or-email>", "the user, by id (usr_…) or e-mail").makeOptionMandatory();

export const planOption = () => new Option("--plan <plan>", "plan").choices(PLAN_NAMES);

export const logLevelOption = () =>
  new Option("--log-level <level>", "least severe log level written")
    .choices(LOG_LEVELS)
    .env("SOCIALPUB_LOG_LEVEL")
    .default("info");

export function parsePositiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError("must be a whole number, 1 or more.");
  }
  return Number(value);
}

/** --secret-key-file: the key that seals live accounts' credentials, instead of SOCIALPUB_SECRET_KEY. */
export const secretKeyFileOption = () =>
  new Option(
    "--secret-key-file <path>",
    "a file holding the key that seals live accounts' credentials (instead of SOCIALPUB_SECRET_KEY)",
  ).env("SOCIALPUB_SECRET_KEY_FILE");

/** --config: the networks' settings (public URL, OAuth apps, API addresses) from a JSON file. */
export const configOption = () =>
  new Option(
    "--config <file>",
    "a JSON file of network settings (public_url; per network client_id, client_secret, scopes, api_url, auth_url); a SOCIALPUB_* variable that is set wins over it",
  ).env("SOCIALPUB_CONFIG");

/** --allow-private-urls: URLs users give may be on loopback and private networks (local testing). */
export const allowPrivateUrlsOption = () =>
  new Option(
    "--allow-private-urls",
    "accept URLs users give (webhooks, media, a Bluesky PDS, a Discord webhook) on loopback, private and link-local addresses (local testing)",
  );
