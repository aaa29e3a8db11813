import type { CredentialKeyring } from "@socialpub/core";
import { serverKeyring } from "../../live/secret-key.ts";
import { CliError, describeFailure } from "../errors.ts";

/**
 * The server's credential keyring as a command on the database `db` reads it: SOCIALPUB_SECRET_KEY or
 * --secret-key-file, with SOCIALPUB_PREVIOUS_SECRET_KEYS; without them, the key file a server on that
 * SQLite database made (a command never makes one). A command that seals or opens credentials needs the
 * very key the server runs with, so one without a key is refused with where to give it.
 */
export function requireKeyring(
  db: string,
  secretKeyFile: string | undefined,
  purpose: string,
): CredentialKeyring {
  let found: ReturnType<typeof serverKeyring>;
  try {
    found = serverKeyring(
      {
        key: process.env.SOCIALPUB_SECRET_KEY,
        file: secretKeyFile,
        previous: process.env.SOCIALPUB_PREVIOUS_SECRET_KEYS,
      },
      db,
      { create: false },
    );
  } catch (error) {
    throw new CliError(describeFailure(error));
  }
  if (!found.keyring) {
    const where =
      found.source.kind === "key-file"
        ? `, or start the server on this database once so it makes its key file (${found.source.path})`
        : "";
    throw new CliError(
      `${purpose} needs the server's secret key: set SOCIALPUB_SECRET_KEY or pass --secret-key-file, as for "socialpub-server start"${where}.`,
    );
  }
  return found.keyring;
}
