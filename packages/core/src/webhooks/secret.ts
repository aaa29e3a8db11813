const PREFIX = "whsec_";
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The signing key inside a webhook secret: `whsec_` (optional) followed by base64. The error never
 * repeats the secret, which must not reach logs.
 */
export function decodeWebhookSecret(secret: string): Buffer {
  if (typeof secret !== "string" || secret === "") {
    throw new TypeError(
      "The webhook secret is missing: pass the whsec_… value shown when the endpoint was created.",
    );
  }
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) {
    throw new TypeError(
      "The webhook secret is not valid: expected whsec_ followed by base64, as shown when the endpoint was created.",
    );
  }
  return Buffer.from(encoded, "base64");
}
