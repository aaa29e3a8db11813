import { ErrorBody } from "../contract/errors.ts";
import { redactSecrets } from "./redact.ts";
import { parseRetryAfter } from "./retry-policy.ts";

/** What the client knows about the request and answer behind an error. Never holds the API key. */
export interface ErrorDetails {
  /** HTTP status, or null when no answer came (connection failure, timeout). */
  status: number | null;
  /** The service's X-Request-Id, to quote when reporting a problem. */
  requestId: string | null;
  /** Response headers (empty when no answer came). */
  headers: Headers;
  /** The raw response body, as received; an error keeps it with its secrets hidden. */
  body: string | null;
  method: string;
  /** Path and query relative to the base URL, e.g. `/posts/post_01…`. */
  path: string;
  cause?: unknown;
}

/**
 * Base class of every error the client throws about a request. `message` is the service's own
 * `{"error": "…"}` text when it sent one.
 */
export class SocialPublishError extends Error {
  override name = "SocialPublishError";
  readonly status: number | null;
  readonly requestId: string | null;
  readonly headers: Headers;
  /**
   * The response body as received, except that the value of every `secret` field and anything shaped
   * like a signing secret (whsec_…) or an API key reads `[redacted]`.
   */
  readonly body: string | null;
  readonly method: string;
  readonly path: string;

  constructor(message: string, details: ErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.requestId = details.requestId;
    this.headers = details.headers;
    this.body = details.body === null ? null : redactSecrets(details.body);
    this.method = details.method;
    this.path = details.path;
  }
}

/** 400: the request broke a rule; the message says which and how to fix it. */
export class BadRequestError extends SocialPublishError {
  override name = "BadRequestError";
}

/** 401: the API key is missing, malformed or revoked. */
export class AuthenticationError extends SocialPublishError {
  override name = "AuthenticationError";
}

/** 404: no such resource belongs to this account. */
export class NotFoundError extends SocialPublishError {
  override name = "NotFoundError";
}

/** 409: a request with the same Idempotency-Key is still being processed. */
export class ConflictError extends SocialPublishError {
  override name = "ConflictError";
}

/** 413: the request body is larger than the service accepts. */
export class PayloadTooLargeError extends SocialPublishError {
  override name = "PayloadTooLargeError";
}

/** 422: the Idempotency-Key was already used for a different request. */
export class UnprocessableEntityError extends SocialPublishError {
  override name = "UnprocessableEntityError";
}

/** 429: too many requests, or the plan's monthly allowance is used up. */
export class RateLimitError extends SocialPublishError {
  override name = "RateLimitError";
  /** Seconds the service asked to wait (from `Retry-After`), or null when it did not say. */
  readonly retryAfter: number | null;

  constructor(message: string, details: ErrorDetails, now: number = Date.now()) {
    super(message, details);
    const ms = parseRetryAfter(details.headers.get("retry-after"), now);
    this.retryAfter = ms === null ? null : Math.ceil(ms / 1000);
  }
}

/** 5xx: the service failed. Safe to retry; the client already did, up to `maxRetries`. */
export class ServerError extends SocialPublishError {
  override name = "ServerError";
}

/** No answer: the connection was refused, reset or could not be made. */
export class ConnectionError extends SocialPublishError {
  override name = "ConnectionError";
}

/** No answer within the time allowed (`timeoutMs`). */
export class TimeoutError extends SocialPublishError {
  override name = "TimeoutError";
}

/** The service answered with a body that does not match the contract's schema. */
export class ResponseValidationError extends SocialPublishError {
  override name = "ResponseValidationError";
}

/** `posts.waitFor` gave up: the time ran out, or the post can no longer reach the wanted status. */
export class WaitForStatusError extends SocialPublishError {
  override name = "WaitForStatusError";
  /** The post's status when the client gave up. */
  readonly lastStatus: string | null;

  constructor(message: string, details: ErrorDetails, lastStatus: string | null) {
    super(message, details);
    this.lastStatus = lastStatus;
  }
}

type ErrorClass = new (message: string, details: ErrorDetails) => SocialPublishError;

const BY_STATUS: Readonly<Record<number, ErrorClass>> = {
  400: BadRequestError,
  401: AuthenticationError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The service's message from an error body, or a plain description when the body has none. */
export function errorMessageFrom(status: number, body: string): string {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(body));
    if (parsed.success && parsed.data.error.trim() !== "") return parsed.data.error;
  } catch {
    // Not JSON (a proxy's HTML page, say): fall through to the generic message.
  }
  return `The service answered ${status} without an error message.`;
}

/** The error for a non-2xx answer: the subclass for its status, else the base class. */
export function errorFromResponse(
  details: ErrorDetails & { status: number; body: string },
): SocialPublishError {
  const message = errorMessageFrom(details.status, details.body);
  const ErrorType = BY_STATUS[details.status] ?? (details.status >= 500 ? ServerError : SocialPublishError);
  return new ErrorType(message, details);
}
