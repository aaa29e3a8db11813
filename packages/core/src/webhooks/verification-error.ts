/** Why a delivery was rejected. */
export type WebhookVerificationReason =
  | "missing_header"
  | "invalid_timestamp"
  | "timestamp_too_old"
  | "timestamp_too_new"
  | "no_matching_signature"
  | "invalid_payload";

/**
 * A delivery that must not be trusted. Answer it with 400 (or 401); the sender retries, so a genuine
 * event that failed on clock skew is delivered again.
 */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
