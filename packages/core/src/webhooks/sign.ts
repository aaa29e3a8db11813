import { randomUUID } from "node:crypto";
import type { WebhookHeaders } from "./headers.ts";
import { decodeWebhookSecret } from "./secret.ts";
import { computeSignature, type RawBody, SIGNATURE_VERSION } from "./signature.ts";

export interface SignWebhookOptions {
  /**
   * The message id for `webhook-id`. Default: the body's own `id` when the body is a JSON object with
   * one (an event envelope), else a fresh `evt_…` id.
   */
  id?: string;
  /** When the attempt is made: a Date, or Unix seconds. Default: now. */
  timestamp?: Date | number;
}

/**
 * Signs a delivery the Standard Webhooks way and returns the headers to send with the body unchanged.
 * The sender uses it for each attempt; users use it to build deliveries in their own tests.
 */
export function signWebhook(
  rawBody: RawBody,
  secret: string,
  options: SignWebhookOptions = {},
): WebhookHeaders {
  const key = decodeWebhookSecret(secret);
  const id = options.id ?? envelopeId(rawBody) ?? `evt_${randomUUID().replaceAll("-", "")}`;
  const timestamp = toUnixSeconds(options.timestamp ?? new Date());
  const signature = computeSignature(key, id, timestamp, rawBody);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": `${SIGNATURE_VERSION},${signature}`,
  };
}

function toUnixSeconds(value: Date | number): number {
  const seconds = value instanceof Date ? Math.floor(value.getTime() / 1000) : value;
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new TypeError("timestamp must be a Date or a whole number of Unix seconds.");
  }
  return seconds;
}

function envelopeId(rawBody: RawBody): string | undefined {
  try {
    const text = typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8");
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object" && "id" in parsed && typeof parsed.id === "string") {
      return parsed.id;
    }
  } catch {
    // Not JSON: the caller gets a generated id.
  }
  return undefined;
}
