import { readFileSync } from "node:fs";
import { createSecureContext } from "node:tls";
import type { TlsFiles } from "../../http/http-server.ts";
import { CliError } from "../errors.ts";

/**
 * The certificate and key `start` serves HTTPS with (--tls-cert and --tls-key, both PEM), read and
 * checked before anything opens, so a mistake stops the start with which file is wrong. Null when
 * neither is given: the server speaks plain HTTP. Errors name the files, never quote what is in them.
 */
export function readTlsFiles(certPath: string | undefined, keyPath: string | undefined): TlsFiles | null {
  if (!certPath && !keyPath) return null;
  if (!certPath || !keyPath) {
    throw new CliError(
      `HTTPS needs both a certificate and its private key: give --tls-cert and --tls-key (SOCIALPUB_TLS_CERT and SOCIALPUB_TLS_KEY); only ${certPath ? "--tls-cert" : "--tls-key"} was given.`,
    );
  }
  const files = { cert: readPem(certPath, "--tls-cert"), key: readPem(keyPath, "--tls-key") };
  try {
    createSecureContext(files);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason =
      code === "ERR_OSSL_X509_KEY_VALUES_MISMATCH"
        ? "the key is not the certificate's"
        : "they are not a PEM certificate and a PEM private key";
    throw new CliError(
      `cannot serve HTTPS with --tls-cert ${certPath} and --tls-key ${keyPath}: ${reason}${code ? ` (${code})` : ""}.`,
    );
  }
  return files;
}

function readPem(path: string, flag: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `cannot read ${flag} ${path}: ${code === "ENOENT" ? "it does not exist" : code === "EACCES" ? "permission denied" : (code ?? "unreadable")}.`,
    );
  }
}
