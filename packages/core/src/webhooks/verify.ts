import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { WebhookEvent } from "../contract/events.ts";
import {
  type IncomingWebhookHeaders,
  readHeader,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from "./headers.ts";
import { decodeWebhookSecret } from "./secret.ts";
import { computeSignature, type RawBody, SIGNATURE_VERSION } from "./signature.ts";
import { WebhookVerificationError } from "./verification-error.ts";

export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from now, either way. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** The current time: a Date or Unix milliseconds (as `Date.now()`). Default: the system clock. */
  now?: Date | number;
}

/**
 * Checks a delivery's Standard Webhooks signature over the raw body and returns the typed event.
 * Throws a WebhookVerificationError that says why when a header is missing, the timestamp is outside
 * the tolerance, no signature matches, or the body is not an event.
 */
export function verifyWebhook(
  rawBody: RawBody,
  headers: IncomingWebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) {
    throw new TypeError(
      "verifyWebhook needs the raw request body (a string or Buffer), not a parsed object: re-serialising changes the bytes that were signed.",
    );
  }
  const key = decodeWebhookSecret(secret);
  const id = required(headers, WEBHOOK_ID_HEADER);
  const timestampText = required(headers, WEBHOOK_TIMESTAMP_HEADER);
  const signatures = required(headers, WEBHOOK_SIGNATURE_HEADER);

  const timestamp = checkTimestamp(timestampText, options);
  const expected = Buffer.from(computeSignature(key, id, timestamp, rawBody));
  if (!signatures.split(" ").some((entry) => matches(entry, expected))) {
    throw new WebhookVerificationError(
      "no_matching_signature",
      "No signature in the webhook-signature header matches: check that the secret is this endpoint's and that the body is verified exactly as received, before any parsing.",
    );
  }
  return parseEvent(rawBody);
}

function required(headers: IncomingWebhookHeaders, name: string): string {
  const value = readHeader(headers, name)?.trim();
  if (!value) {
    throw new WebhookVerificationError(
      "missing_header",
      `The ${name} header is missing: this is not a signed delivery.`,
    );
  }
  return value;
}

function checkTimestamp(text: string, options: VerifyWebhookOptions): number {
  if (!/^\d+$/.test(text)) {
    throw new WebhookVerificationError(
      "invalid_timestamp",
      "The webhook-timestamp header is not Unix seconds.",
    );
  }
  const timestamp = Number(text);
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const nowMs = options.now === undefined ? Date.now() : Number(options.now);
  const now = Math.floor(nowMs / 1000);
  if (now - timestamp > tolerance) {
    throw new WebhookVerificationError(
      "timestamp_too_old",
      `The webhook-timestamp is ${now - timestamp} s old, more than the ${tolerance} s tolerated: a stale or replayed delivery, or this machine's clock is wrong.`,
    );
  }
  if (timestamp - now > tolerance) {
    throw new WebhookVerificationError(
      "timestamp_too_new",
      `The webhook-timestamp is ${timestamp - now} s in the future, more than the ${tolerance} s tolerated: this machine's clock or the sender's is wrong.`,
    );
  }
  return timestamp;
}

/** One `v1,<base64>` entry against the expected signature, in constant time. */
function matches(entry: string, expected: Buffer): boolean {
  const comma = entry.indexOf(",");
  if (comma < 0 || entry.slice(0, comma) !== SIGNATURE_VERSION) return false;
  const candidate = Buffer.from(entry.slice(comma + 1));
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

function parseEvent(rawBody: RawBody): WebhookEvent {
  const text = typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError("invalid_payload", "The signature is valid but the body is not JSON.");
  }
  const parsed = WebhookEvent.safeParse(json);
  if (!parsed.success) {
    throw new WebhookVerificationError(
      "invalid_payload",
      `The signature is valid but the body is not a known event: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
