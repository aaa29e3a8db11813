/**
 * The store cannot be reached right now: its database is restarting, or the connection to it is down
 * or too slow. Nothing was changed that the caller was told about, and the same request may be tried
 * again shortly; the service answers 503 with Retry-After rather than 500.
 */
export class StoreUnavailableError extends Error {
  /** Seconds after which a retry is worth making. */
  readonly retryAfterSeconds: number;

  constructor(message: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "StoreUnavailableError";
    this.retryAfterSeconds = options.retryAfterSeconds ?? 2;
  }
}
