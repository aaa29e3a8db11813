import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import {
  ConnectionError,
  type ErrorDetails,
  errorFromResponse,
  ResponseValidationError,
  SocialPublishError,
  TimeoutError,
} from "./errors.ts";
import { decideRetry, type RetryPolicy } from "./retry-policy.ts";
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
   * POST and DELETE only: the Idempotency-Key to send (1–255 printable characters). Default: a fresh
   * UUID per call. Either way the same key is sent on every retry of that call.
   */
  idempotencyKey?: string;
}

export type HttpMethod = "GET" | "POST" | "DELETE";

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
  const basePath = config.baseUrl.pathname.replace(/\/+$/, "");

  return async function send(request) {
    const options = request.options ?? {};
    const url = resolveUrl(config.baseUrl, basePath, request.path, request.query);
    const path = url.pathname.slice(basePath.length) + url.search;
    const headers = baseHeaders(config, request, options);
    const body = request.bytes
      ? request.bytes.data
      : request.json === undefined
        ? undefined
        : JSON.stringify(request.json);
    const maxRetries = options.maxRetries ?? config.retry.maxRetries;
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;
    const describe = (extra: Partial<ErrorDetails>): ErrorDetails => ({
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
      let response: TransportResponse;
      try {
        response = await attempt(config.transport, {
          method: request.method,
          url: url.href,
          headers,
          body,
          timeoutMs,
          signal: options.signal,
        });
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (error instanceof AttemptTimedOut || isUndiciTimeout(error)) {
          throw new TimeoutError(
            `${request.method} ${path} got no answer within ${timeoutMs} ms.`,
            describe({ cause: error }),
          );
        }
        const failure = new ConnectionError(
          `Could not reach ${url.origin}: ${describeCause(error)}`,
          describe({ cause: error }),
        );
        const decision = decideRetry(
          { kind: "connection-error" },
          retries,
          { ...config.retry, maxRetries },
          Date.now(),
        );
        if (!decision.retry) throw failure;
        await wait(decision.delayMs, options.signal);
        continue;
      }

      const requestId = response.headers.get("x-request-id");
      if (response.status >= 200 && response.status < 300) {
        const data = parseBody(
          request.schema,
          response,
          describe({ status: response.status, requestId, headers: response.headers, body: response.body }),
        );
        return { data, url: url.href, status: response.status, headers: response.headers, requestId };
      }
      const error = errorFromResponse(
        describe({
          status: response.status,
          requestId,
          headers: response.headers,
          body: response.body,
        }) as ErrorDetails & {
          status: number;
          body: string;
        },
      );
      const decision = decideRetry(
        { kind: "response", status: response.status, retryAfter: response.headers.get("retry-after") },
        retries,
        { ...config.retry, maxRetries },
        Date.now(),
      );
      if (!decision.retry) throw error;
      await wait(decision.delayMs, options.signal);
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

function baseHeaders(config: RequesterConfig, request: ApiRequest<z.ZodType>, options: RequestOptions) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${config.apiKey}`,
    accept: "application/json",
    "user-agent": config.userAgent,
  };
  if (request.bytes) headers["content-type"] = request.bytes.contentType;
  else if (request.json !== undefined) headers["content-type"] = "application/json";
  if (request.method === "POST" || request.method === "DELETE") {
    const key = options.idempotencyKey ?? randomUUID();
    if (!IDEMPOTENCY_KEY.test(key)) {
      throw new TypeError("idempotencyKey must be 1 to 255 printable ASCII characters.");
    }
    headers["idempotency-key"] = key;
  }
  return headers;
}

class AttemptTimedOut extends Error {}

/** One attempt, bounded by the timeout even when the transport ignores its signal (an in-process handler). */
async function attempt(
  transport: Transport,
  input: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: string | Uint8Array<ArrayBuffer> | undefined;
    timeoutMs: number;
    signal: AbortSignal | undefined;
  },
): Promise<TransportResponse> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new AttemptTimedOut()), input.timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout.signal]) : timeout.signal;
  try {
    const pending = transport({
      method: input.method,
      url: input.url,
      headers: input.headers,
      body: input.body,
      signal,
    });
    return await Promise.race([pending, rejectOnAbort(signal, pending)]);
  } catch (error) {
    if (timeout.signal.aborted && !input.signal?.aborted) throw new AttemptTimedOut();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function rejectOnAbort(signal: AbortSignal, pending: Promise<unknown>): Promise<never> {
  return new Promise((_, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    // Drop the listener once the attempt settles, so long-lived signals do not collect them.
    pending.then(
      () => signal.removeEventListener("abort", onAbort),
      () => signal.removeEventListener("abort", onAbort),
    );
  });
}

async function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}

function isUndiciTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT";
}

function describeCause(error: unknown): string {
  const inner = (error as { cause?: unknown } | null)?.cause ?? error;
  const code = (inner as { code?: unknown } | null)?.code;
  const message = inner instanceof Error ? inner.message : String(inner);
  return typeof code === "string" && !message.includes(code) ? `${code} ${message}` : message;
}

function parseBody<S extends z.ZodType>(
  schema: S,
  response: TransportResponse,
  details: ErrorDetails,
): z.output<S> {
  const where = `${details.method} ${details.path} answered ${response.status}`;
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    throw new ResponseValidationError(`${where} with a body that is not JSON.`, details);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const name = schemaName(schema);
    throw new ResponseValidationError(
      `${where} with a body that does not match ${name}:\n${z.prettifyError(parsed.error)}`,
      details,
    );
  }
  return parsed.data;
}

function schemaName(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  return typeof id === "string" ? `the ${id} schema` : "the expected schema";
}
