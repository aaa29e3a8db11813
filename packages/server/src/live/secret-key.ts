import { readFileSync } from "node:fs";
import { CredentialKeyError, CredentialKeyring, parseSecretKey } from "@socialpub/core";

export interface SecretKeySources {
  /** SOCIALPUB_SECRET_KEY: 32 bytes, base64. */
  key?: string | undefined;
  /** --secret-key-file: a file holding the same (what a secrets manager mounts). */
  file?: string | undefined;
  /**
   * SOCIALPUB_PREVIOUS_SECRET_KEYS: keys that sealed credentials before a rotation, comma-separated;
   * they only open, the current key seals.
   */
  previous?: string | undefined;
}

/**
 * The keyring that seals live accounts' credentials, from the server's configuration; null when no key
 * was given. A key that is not 32 bytes of base64 is refused with how to make one.
 */
export function keyringFrom(sources: SecretKeySources): CredentialKeyring | null {
  if (sources.key && sources.file) {
    throw new CredentialKeyError(
      "give the secret key once: SOCIALPUB_SECRET_KEY or --secret-key-file, not both",
    );
  }
  let current: Uint8Array | null = null;
  if (sources.key) current = parseSecretKey(sources.key, "SOCIALPUB_SECRET_KEY");
  if (sources.file) {
    let text: string;
    try {
      text = readFileSync(sources.file, "utf8");
    } catch (error) {
      throw new CredentialKeyError(
        `cannot read --secret-key-file ${sources.file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
    current = parseSecretKey(text, `the secret key file ${sources.file}`);
  }
  const previous = (sources.previous ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k !== "")
    .map((k, i) => parseSecretKey(k, `key ${i + 1} of SOCIALPUB_PREVIOUS_SECRET_KEYS`));
  if (current === null) {
    if (previous.length > 0) {
      throw new CredentialKeyError(
        "SOCIALPUB_PREVIOUS_SECRET_KEYS needs a current key beside it (SOCIALPUB_SECRET_KEY)",
      );
    }
    return null;
  }
  return new CredentialKeyring(current, previous);
}

/**
 * Whether the server's configuration gives the secret key that seals live accounts' credentials
 * (SOCIALPUB_SECRET_KEY, or a key file: --secret-key-file, SOCIALPUB_SECRET_KEY_FILE). Without one a
 * server connects no live account (503), which `keys create --live` warns of; this is the one place
 * that decides whether a key is there.
 */
export function secretKeyConfigured(sources: Pick<SecretKeySources, "key" | "file">): boolean {
  return Boolean(sources.key?.trim() || sources.file?.trim());
}
