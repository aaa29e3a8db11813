import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { withoutTrailingSlashes } from "../text/trailing-slashes.ts";
import { sendAttempt } from "./attempt.ts";
import { AttemptDeadlines } from "./attempt-cutoff.ts";
import {
  ConnectionError,
  type ErrorDetails,
  errorFromResponse,
  SocialPublishError,
  TimeoutError,
} from "./errors.ts";
import { parseResponseBody } from "./parse-response.ts";
import { pause } from "./pause.ts";
import { decideRetry, type RetryDecision, type RetryPolicy } from "./retry-policy.ts";
import type { Transport, TransportResponse } from "./transport.ts";

/** Per-call options every method accepts as its last argument. */
export interface RequestOptions {
  /** Cancels the call, including any wait between retries; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Time allowed for each attempt, in ms. Default: the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default: the client's `maxRetries`. */
  maxRetries?: number;
  /**
   * POST, DELETE and `posts.update` only: the Idempotency-Key to send (1–255 printable characters). Default: a fresh
   * UUID per call. Either way the same key is sent on every retry of that call. The service keeps only
   * answers that made a change: after an error (say 400, a network not connected), fix the cause and
   * call again with the same key to make the change; after a success the same key replays it.
   */
  idempotencyKey?: string;
}

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

export interface ApiRequest<S extends z.ZodType> {
  method: HttpMethod;
  /** A path under the base URL ("/posts"), or an absolute URL under it (a Link header's next page). */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** A JSON body. */
  json?: unknown;
  /** A raw body with its media type (media uploads). */
  bytes?: { data: Uint8Array<ArrayBuffer>; contentType: string };
  /** The contract schema the 2xx body must match. */
  schema: S;
  /**
   * true: a PATCH the service takes an Idempotency-Key for (PATCH /posts/{id}); POST and DELETE do
   * unless false (POST /keys, whose answer the service does not keep).
   */
  idempotent?: boolean;
  options?: RequestOptions;
}

export interface ApiResponse<T> {
  data: T;
  /** The URL that answered (after query parameters were added). */
  url: string;
  status: number;
  headers: Headers;
  requestId: string | null;
}

export interface RequesterConfig {
  apiKey: string;
  baseUrl: URL;
  transport: Transport;
  userAgent: string;
  timeoutMs: number;
  retry: RetryPolicy;
}

export type Requester = <S extends z.ZodType>(request: ApiRequest<S>) => Promise<ApiResponse<z.output<S>>>;

const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * Sends API requests: authentication, Idempotency-Key on writes, a timeout per attempt, retries by the
 * retry policy, typed errors, and validation of every successful body against its contract schema.
 */
export function createRequester(config: RequesterConfig): Requester {
  const basePath = withoutTrailingSlashes(config.baseUrl.pathname);
  const origin = config.baseUrl.origin;
  const deadlines = new AttemptDeadlines();

  return async function send(request) {
    const options = request.options ?? {};
    const { href, path } = resolveUrl(config.baseUrl, origin, basePath, request.path, request.query);
    const outgoing = {
      method: request.method,
      url: href,
      headers: requestHeaders(config, request, options),
      body: request.bytes?.data ?? (request.json === undefined ? undefined : JSON.stringify(request.json)),
    };
    const policy = { ...config.retry, maxRetries: options.maxRetries ?? config.retry.maxRetries };
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;
    const details = (extra: Partial<ErrorDetails> = {}): ErrorDetails => ({
      status: null,
      requestId: null,
      headers: new Headers(),
      body: null,
      method: request.method,
      path,
      ...extra,
    });

    for (let retries = 0; ; retries++) {
      options.signal?.throwIfAborted();
      const result = await sendAttempt(config.transport, outgoing, deadlines, timeoutMs, options.signal);
      if (result.kind === "timeout") {
        // Not retried: the attempt already used its whole allowance, and the caller chose that allowance.
        throw new TimeoutError(
          `${request.method} ${path} got no answer within ${timeoutMs} ms.`,
          details({ cause: result.cause }),
        );
      }

      let failure: SocialPublishError;
      let decision: RetryDecision;
      if (result.kind === "connection") {
        failure = new ConnectionError(
          `Could not reach ${origin}: ${result.reason}`,
          details({ cause: result.cause }),
        );
        decision = decideRetry({ kind: "connection-error" }, retries, policy, Date.now());
      } else {
        const response = result.response;
        const { status, body } = response;
        const requestId = response.header("x-request-id");
        // The answer's details as an error would carry them, made only when one is thrown: a success
        // never reads its headers unless the caller does (ApiResponse.headers is read on demand too).
        const answered = () => ({ ...details(), status, headers: response.headers, body, requestId });
        if (status >= 200 && status < 300) {
          const data = parseResponseBody(request.schema, body, answered);
          return new SuccessfulAnswer(data, href, status, requestId, response);
        }
        failure = errorFromResponse(answered());
        const retryAfter = response.header("retry-after");
        decision = decideRetry({ kind: "response", status, retryAfter }, retries, policy, Date.now());
      }
      if (!decision.retry) throw failure;
      await pause(decision.delayMs, options.signal);
    }
  };
}

/**
 * A 2xx answer. Its headers come from the transport when first read: most calls never read them. A
 * class rather than an object literal with its own getter, so every answer shares one hidden class and
 * holds no closure over the call (docs/performance.md, "What a request leaves in the old generation").
 */
class SuccessfulAnswer<T> implements ApiResponse<T> {
  readonly data: T;
  readonly url: string;
  readonly status: number;
  readonly requestId: string | null;
  readonly #response: TransportResponse;

  constructor(data: T, url: string, status: number, requestId: string | null, response: TransportResponse) {
    this.data = data;
    this.url = url;
    this.status = status;
    this.requestId = requestId;
    this.#response = response;
  }

  get headers(): Headers {
    return this.#response.headers;
  }
}

/**
 * A path the client builds itself with no query ("/me", "/posts/post_01…"): only letters, digits and
 * `_~-` between slashes, so no dot segment and nothing to escape — what URL would make of it is the
 * string itself, and parsing it would cost more than the rest of a call's own work.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-]+)+$/;

/** The request's absolute URL, and its path and query under the base URL (for errors). */
function resolveUrl(
  base: URL,
  origin: string,
  basePath: string,
  path: string,
  query: Record<string, string | number | undefined> | undefined,
): { href: string; path: string } {
  if (query === undefined && PLAIN_PATH.test(path)) return { href: `${origin}${basePath}${path}`, path };
  const url = /^https?:\/\//i.test(path) ? new URL(path) : new URL(`${base.origin}${basePath}${path}`);
  // A next-page URL comes from a response header: never send the API key anywhere but the base URL.
  if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`)) {
    throw new SocialPublishError(
      `Refusing to follow ${url.origin}${url.pathname}: it is outside the base URL.`,
      {
        status: null,
        requestId: null,
        headers: new Headers(),
        body: null,
        method: "GET",
        path: url.pathname,
      },
    );
  }
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return { href: url.href, path: url.pathname.slice(basePath.length) + url.search };
}

function requestHeaders(config: RequesterConfig, request: ApiRequest<z.ZodType>, options: RequestOptions) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${config.apiKey}`,
    accept: "application/json",
    "user-agent": config.userAgent,
  };
  if (request.bytes) headers["content-type"] = request.bytes.contentType;
  else if (request.json !== undefined) headers["content-type"] = "application/json";
  const write = request.method === "POST" || request.method === "DELETE";
  if ((write && request.idempotent !== false) || request.idempotent === true) {
    const key = options.idempotencyKey ?? randomUUID();
    if (!IDEMPOTENCY_KEY.test(key)) {
      throw new TypeError("idempotencyKey must be 1 to 255 printable ASCII characters.");
    }
    headers["idempotency-key"] = key;
  }
  return headers;
}
