/** The three Standard Webhooks headers, lower-case as HTTP/2 and node:http present them. */
export const WEBHOOK_ID_HEADER = "webhook-id";
export const WEBHOOK_TIMESTAMP_HEADER = "webhook-timestamp";
export const WEBHOOK_SIGNATURE_HEADER = "webhook-signature";

/** The headers a signed delivery carries. */
export type WebhookHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

/**
 * Request headers in any of the shapes receivers have at hand: a fetch `Headers`, node:http's
 * `req.headers`, or a plain object (names in any case).
 */
export type IncomingWebhookHeaders =
  | Headers
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** One header's value, names compared case-insensitively; repeated values joined by a space. */
export function readHeader(headers: IncomingWebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === "string" ? value : value.join(" ");
  }
  return undefined;
}
