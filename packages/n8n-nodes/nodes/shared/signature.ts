import { createHmac, timingSafeEqual } from "node:crypto";

/** Standard Webhooks: a signature older or newer than this is refused, so a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export interface SignedRequest {
  /** `webhook-id` header. */
  id: string | undefined;
  /** `webhook-timestamp` header, Unix seconds. */
  timestamp: string | undefined;
  /** `webhook-signature` header: space-separated `v1,<base64>` entries. */
  signature: string | undefined;
  /** The body exactly as received. */
  rawBody: Buffer | undefined;
}

export type Verification = { ok: true } | { ok: false; reason: string };

function secretBytes(secret: string): Buffer | undefined {
  const encoded = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  const bytes = Buffer.from(encoded, "base64");
  return bytes.length > 0 ? bytes : undefined;
}

/**
 * Verifies a Standard Webhooks 1.0 signature over the raw body. Never throws: any malformed input is
 * a failed verification with a reason for the log (never the secret or the expected signature).
 */
export function verifyWebhook(
  request: SignedRequest,
  secret: string | undefined,
  nowSeconds: number,
  toleranceSeconds: number = SIGNATURE_TOLERANCE_SECONDS,
): Verification {
  const { id, timestamp, signature, rawBody } = request;
  if (!secret) return { ok: false, reason: "no signing secret is stored for this trigger" };
  if (!id || !timestamp || !signature) return { ok: false, reason: "webhook signature headers are missing" };
  if (!rawBody) return { ok: false, reason: "the raw request body is unavailable" };
  if (!/^\d+$/.test(timestamp)) return { ok: false, reason: "webhook-timestamp is not a Unix time" };
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) {
    return { ok: false, reason: "webhook-timestamp is outside the 5-minute tolerance" };
  }
  const key = secretBytes(secret);
  if (!key) return { ok: false, reason: "the stored signing secret is malformed" };

  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(rawBody).digest();
  for (const entry of signature.split(" ")) {
    const [version, value] = entry.split(",", 2);
    if (version !== "v1" || !value) continue;
    const candidate = Buffer.from(value, "base64");
    if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) return { ok: true };
  }
  return { ok: false, reason: "no webhook signature matches" };
}
