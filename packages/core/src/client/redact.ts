/** What stands in for a hidden secret. */
export const REDACTED = "[redacted]";

/**
 * The value of a `secret` field (or `…_secret`), as JSON text writes it: a string, with its escapes, or
 * a bare number, boolean or null.
 */
const SECRET_FIELD = /("(?:\w+_)?secret"\s*:\s*)("(?:[^"\\]|\\.)*"|[-\w.+]+)/gi;

/**
 * A webhook signing secret (whsec_…) or an API key (sp_test_…, sp_live_…) wherever it appears, even
 * in a body cut short or not JSON at all. A backslash belongs to it too: JSON may write `/` as `\/`.
 */
const SECRET_VALUE = /\b(whsec_|sp_(?:test|live)_)[A-Za-z0-9+/=_\\-]+/g;

/**
 * A response body with its secrets hidden, for an error to keep. Errors get logged, printed and sent to
 * error trackers, and a body that failed validation may be the one answer that holds a signing secret
 * (POST /webhooks). Everything else in the body stays as received.
 */
export function redactSecrets(body: string): string {
  return body.replace(SECRET_FIELD, `$1"${REDACTED}"`).replace(SECRET_VALUE, `$1${REDACTED}`);
}
