import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/*
 * Credentials at rest: every live account's credentials are sealed with AES-256-GCM under the server's
 * secret key before they reach the store, with a fresh random 96-bit IV per value and the account
 * (user, mode, network) as associated data, so a sealed value copied onto another account's row does
 * not open. Each sealed value names the id of the key that sealed it, so keys can rotate: the newest
 * key seals, older keys given alongside it still open what they sealed.
 *
 * Format: `v1.<key id>.<iv>.<ciphertext>.<tag>`, the last three base64url.
 */

const VERSION = "v1";
const KEY_BYTES = 32;
const IV_BYTES = 12;

/** A secret key that is not 32 bytes of base64, or a sealed value this keyring cannot open. */
export class CredentialKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CredentialKeyError";
  }
}

/** The id a sealed value carries for its key: the first 8 hex digits of the key's SHA-256. */
export function keyIdOf(key: Uint8Array): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

/** Reads a secret key given as base64 (standard or url-safe, padding optional): exactly 32 bytes. */
export function parseSecretKey(text: string, source = "the secret key"): Uint8Array {
  const trimmed = text.trim();
  const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) ? Buffer.from(trimmed, "base64") : Buffer.alloc(0);
  if (bytes.length !== KEY_BYTES) {
    throw new CredentialKeyError(
      `${source} must be ${KEY_BYTES} random bytes in base64 (44 characters); make one with: openssl rand -base64 32`,
    );
  }
  return new Uint8Array(bytes);
}

export class CredentialKeyring {
  private readonly keys = new Map<string, Uint8Array>();
  /** The id of the key that seals new values. */
  readonly currentKeyId: string;

  /** `current` seals; `previous` keys only open what they sealed before a rotation. */
  constructor(current: Uint8Array, previous: readonly Uint8Array[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== KEY_BYTES) throw new CredentialKeyError(`a secret key must be ${KEY_BYTES} bytes`);
      this.keys.set(keyIdOf(key), key);
    }
    this.currentKeyId = keyIdOf(current);
  }

  /** Seals `plaintext` for the account named by `associatedData`. */
  seal(plaintext: string, associatedData: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(associatedData, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, this.currentKeyId, b64(iv), b64(ciphertext), b64(tag)].join(".");
  }

  /** Opens a sealed value; throws CredentialKeyError when it is not for this account or this keyring. */
  open(sealed: string, associatedData: string): string {
    const parts = sealed.split(".");
    if (parts.length !== 5 || parts[0] !== VERSION) {
      throw new CredentialKeyError("the stored credentials are not in a format this server reads");
    }
    const [, keyId, iv, ciphertext, tag] = parts as [string, string, string, string, string];
    const key = this.keys.get(keyId);
    if (!key) {
      throw new CredentialKeyError(
        `the stored credentials were sealed with key ${keyId}, which this server was not given; start it with that key (as the secret key or a previous one), or reconnect the account`,
      );
    }
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(associatedData, "utf8"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, "base64url")),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      throw new CredentialKeyError("the stored credentials do not open with this account and key");
    }
  }

  /** The id of the key a sealed value names, and whether this keyring holds that key. */
  keyOf(sealed: string): { id: string; held: boolean } {
    const id = sealed.split(".")[1] ?? "";
    return { id, held: this.keys.has(id) };
  }

  /** Whether a sealed value was sealed with a key other than the current one (it should be resealed). */
  isStale(sealed: string): boolean {
    return sealed.split(".")[1] !== this.currentKeyId;
  }
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

/** The associated data that binds sealed credentials to one account. */
export function accountBinding(userId: string, mode: string, platform: string): string {
  return `socialpub:account:${userId}:${mode}:${platform}`;
}
