import { createHmac } from "node:crypto";

/** The version tag of the symmetric (HMAC-SHA256) scheme. */
export const SIGNATURE_VERSION = "v1";

/** Raw bodies as receivers and senders hold them. */
export type RawBody = string | Uint8Array;

/**
 * base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), without the version tag. The body is fed as
 * bytes, so a Buffer is signed exactly as received, whatever its encoding.
 */
export function computeSignature(key: Buffer, id: string, timestamp: number, body: RawBody): string {
  return createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest("base64");
}
