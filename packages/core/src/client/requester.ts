import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { withoutTrailingSlashes } from "../text/trailing-slashes.ts";
import { sendAttempt } from "./attempt.ts";
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
import type { Transport } from "./transport.ts";

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
  /** A PATCH the service takes an Idempotency-Key for (PATCH /posts/{id}); POST and DELETE always do. */
  idempotent?: true;
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

  return async function send(request) {
    const options = request.options ?? {};
    const url = resolveUrl(config.baseUrl, basePath, request.path, request.query);
    const path = url.pathname.slice(basePath.length) + url.search;
    const outgoing = {
      method: request.method,
      url: url.href,
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
      const result = await sendAttempt(config.transport, outgoing, timeoutMs, options.signal);
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
          `Could not reach ${url.origin}: ${result.reason}`,
          details({ cause: result.cause }),
        );
        decision = decideRetry({ kind: "connection-error" }, retries, policy, Date.now());
      } else {
        const { status, headers, body } = result.response;
        const answered = { ...details(), status, headers, body, requestId: headers.get("x-request-id") };
        if (status >= 200 && status < 300) {
          const data = parseResponseBody(request.schema, answered);
          return { data, url: url.href, status, headers, requestId: answered.requestId };
        }
        failure = errorFromResponse(answered);
        const retryAfter = headers.get("retry-after");
        decision = decideRetry({ kind: "response", status, retryAfter }, retries, policy, Date.now());
      }
      if (!decision.retry) throw failure;
      await pause(decision.delayMs, options.signal);
    }
  };
}

function resolveUrl(
  base: URL,
  basePath: string,
  path: string,
  query: Record<string, string | number | undefined> | undefined,
): URL {
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
  return url;
}

function requestHeaders(config: RequesterConfig, request: ApiRequest<z.ZodType>, options: RequestOptions) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${config.apiKey}`,
    accept: "application/json",
    "user-agent": config.userAgent,
  };
  if (request.bytes) headers["content-type"] = request.bytes.contentType;
  else if (request.json !== undefined) headers["content-type"] = "application/json";
  if (request.method === "POST" || request.method === "DELETE" || request.idempotent === true) {
    const key = options.idempotencyKey ?? randomUUID();
    if (!IDEMPOTENCY_KEY.test(key)) {
      throw new TypeError("idempotencyKey must be 1 to 255 printable ASCII characters.");
    }
    headers["idempotency-key"] = key;
  }
  return headers;
}
