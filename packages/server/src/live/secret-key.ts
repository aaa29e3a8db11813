import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { CredentialKeyError, CredentialKeyring, parseSecretKey } from "@socialpub/core";
import { isPostgresUrl } from "../cli/open-store.ts";

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
  return keyringWith(current, sources.previous);
}

function keyringWith(current: Uint8Array | null, previousKeys: string | undefined): CredentialKeyring | null {
  const previous = (previousKeys ?? "")
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

/** The file a server keeps its own secret key in, in the folder of its SQLite database. */
export const KEY_FILE_NAME = "secret-key";

/** Where a server started on a database gets its secret key. */
export type ServerKeySource =
  /** SOCIALPUB_SECRET_KEY or --secret-key-file: `from` names which. */
  | { kind: "configured"; from: string }
  /** None configured: the key file in the database's folder, made at the first start if missing. */
  | { kind: "key-file"; path: string; exists: boolean }
  /** None at all: why, and what to set. */
  | { kind: "none"; reason: string };

/**
 * Where the server started on `db` (a SQLite path, `:memory:` or a PostgreSQL URL) gets its secret key:
 * the one configured, else (SQLite) the key file beside the database, else none. Reads nothing but
 * whether the key file exists; what a command says about live accounts follows from it.
 */
export function serverKeySource(sources: SecretKeySources, db: string): ServerKeySource {
  if (sources.key) return { kind: "configured", from: "SOCIALPUB_SECRET_KEY" };
  if (sources.file) return { kind: "configured", from: `--secret-key-file ${sources.file}` };
  if (isPostgresUrl(db)) {
    return {
      kind: "none",
      reason:
        "a PostgreSQL database has no data folder to keep a key in, and every instance must have the same one: set SOCIALPUB_SECRET_KEY (or pass --secret-key-file); make one with: openssl rand -base64 32",
    };
  }
  if (db === ":memory:") {
    return {
      kind: "none",
      reason: "a database in memory has no data folder: set SOCIALPUB_SECRET_KEY to connect live accounts",
    };
  }
  const path = join(dirname(resolve(db)), KEY_FILE_NAME);
  return { kind: "key-file", path, exists: existsSync(path) };
}

export interface ServerKeyring {
  /** Null only where the source is none. */
  keyring: CredentialKeyring | null;
  source: ServerKeySource;
  /** The key file was made just now (by this call). */
  created: boolean;
}

/**
 * The server's keyring, from where serverKeySource says. A key file is read, or with `create` made when
 * missing (32 random bytes, base64, mode 0600). It is written whole under another name and linked into
 * place, which fails if the name is taken: of two processes starting at once, one makes the file and the
 * other reads that one, never a half-written file. A key file others can read, or one that holds no key,
 * is refused with what to do; so is a configured key that is not one.
 */
export function serverKeyring(
  sources: SecretKeySources,
  db: string,
  options: { create: boolean },
): ServerKeyring {
  const source = serverKeySource(sources, db);
  if (source.kind !== "key-file") return { keyring: keyringFrom(sources), source, created: false };
  let created = false;
  if (!source.exists) {
    if (!options.create) return { keyring: keyringWith(null, sources.previous), source, created };
    created = makeKeyFile(source.path);
  }
  const key = readKeyFile(source.path);
  return { keyring: keyringWith(key, sources.previous), source: { ...source, exists: true }, created };
}

/** Makes the key file unless another process made it first; true when this call made it. */
function makeKeyFile(path: string): boolean {
  const draft = `${path}.${process.pid}.${randomBytes(6).toString("hex")}`;
  try {
    const fd = openSync(draft, "wx", 0o600);
    try {
      writeSync(fd, `${randomBytes(32).toString("base64")}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(draft, path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    }
  } catch (error) {
    throw new CredentialKeyError(
      `cannot make the secret key file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; make the folder writable, or set SOCIALPUB_SECRET_KEY`,
    );
  } finally {
    try {
      unlinkSync(draft);
    } catch {
      // Never made, or already gone.
    }
  }
}

function readKeyFile(path: string): Uint8Array {
  let text: string;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new CredentialKeyError(`the secret key file ${path} is not a file`);
    if ((stats.mode & 0o077) !== 0) {
      throw new CredentialKeyError(
        `the secret key file ${path} can be read by others (mode ${(stats.mode & 0o777).toString(8)}): chmod 600 ${path}`,
      );
    }
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof CredentialKeyError) throw error;
    throw new CredentialKeyError(
      `cannot read the secret key file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  try {
    return parseSecretKey(text);
  } catch {
    throw new CredentialKeyError(
      `the secret key file ${path} does not hold a secret key (32 bytes in base64): put back the copy kept with the database's backup; without it, live accounts must be connected and webhook endpoints registered again`,
    );
  }
}
