import type { CredentialKeyring } from "@socialpub/core";
import { keyringFrom } from "../../live/secret-key.ts";
import { CliError, describeFailure } from "../errors.ts";

/**
 * The server's credential keyring as a command reads it: SOCIALPUB_SECRET_KEY or --secret-key-file,
 * with SOCIALPUB_PREVIOUS_SECRET_KEYS. A command that seals or opens credentials needs the very key the
 * server runs with, so one without a key is refused with where to give it.
 */
export function requireKeyring(secretKeyFile: string | undefined, purpose: string): CredentialKeyring {
  let keyring: CredentialKeyring | null;
  try {
    keyring = keyringFrom({
      key: process.env.SOCIALPUB_SECRET_KEY,
      file: secretKeyFile,
      previous: process.env.SOCIALPUB_PREVIOUS_SECRET_KEYS,
    });
  } catch (error) {
    throw new CliError(describeFailure(error));
  }
  if (!keyring) {
    throw new CliError(
      `${purpose} needs the server's secret key: set SOCIALPUB_SECRET_KEY or pass --secret-key-file, as for "socialpub-server start".`,
    );
  }
  return keyring;
}
