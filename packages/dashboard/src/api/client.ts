import { nextCursor } from "../lib/link.ts";
import type { Page } from "./types.ts";

const BASE = "/api/v1";

/** An error answer of the API: its status, its message and the request id to quote. */
export class ApiError extends Error {
  readonly status: number;
  readonly requestId: string | null;
  constructor(status: number, message: string, requestId: string | null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.requestId = requestId;
  }
}

export type Query = Record<string, string | number | undefined>;

export interface Api {
  get<T>(path: string, query?: Query): Promise<T>;
  /** A page of a list: `{data}` and the cursor of the next page. */
  list<T>(path: string, query?: Query): Promise<Page<T>>;
  send<T>(method: "POST" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<T>;
  /** Sends a file's bytes with its own Content-Type (POST /media). */
  upload<T>(path: string, file: File): Promise<T>;
}

function urlOf(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return `${BASE}${path}${search ? `?${search}` : ""}`;
}

async function errorOf(response: Response): Promise<ApiError> {
  let message = `The server answered ${response.status}.`;
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === "string") message = body.error;
  } catch {
    // Not JSON: keep the status line.
  }
  return new ApiError(response.status, message, response.headers.get("x-request-id"));
}

/**
 * Whether a write may still have happened, or may yet: no answer came (0), a request with the same key
 * is still running (409), or the service answered 429 or 5xx, which it does not keep under the key.
 * Trying such a write again must reuse its key.
 */
function outcomeUnknown(status: number): boolean {
  return status === 0 || status === 409 || status === 429 || status >= 500;
}

/**
 * The writes the service keys by Idempotency-Key: every POST and DELETE, and the edit of a post
 * (PATCH /posts/{id}). The other PATCHes set fields to given values and take no key, and neither does
 * POST /keys: its answer holds the new key, which the service never keeps to replay.
 */
function takesIdempotencyKey(method: string, url: string): boolean {
  if (method === "POST" && url === `${BASE}/keys`) return false;
  return (
    method === "POST" || method === "DELETE" || (method === "PATCH" && /^\/api\/v1\/posts\/[^/?]+$/.test(url))
  );
}

/**
 * Calls the public API with the key as a bearer credential. The key goes only in the Authorization
 * header — never in a URL, so it cannot reach a log or the browser history. A 401 signs out.
 *
 * Writes (POST, DELETE, and PATCH of a post) carry an Idempotency-Key. A write whose outcome is unknown (no answer, 409, 429,
 * 5xx) keeps its key: clicking again sends the same request with the same key, so if the first one did
 * go through the service replays its answer instead of acting twice. Once a write has an answer, its
 * key is dropped, so doing the same thing again on purpose (resending an event once more) is a new
 * request.
 */
export function createApi(key: string, onUnauthorized: (error: ApiError) => void): Api {
  /** Idempotency keys of writes whose outcome is unknown, by method, path and body. */
  const pending = new Map<string, string>();

  async function call(method: string, url: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: "application/json" };
    const file = body instanceof File ? body : null;
    const text = body === undefined || file ? null : JSON.stringify(body);
    if (text !== null) headers["content-type"] = "application/json";
    if (file) headers["content-type"] = file.type || "application/octet-stream";
    const write = takesIdempotencyKey(method, url);
    // A file is told apart by its name, size and time: the same upload again after no answer reuses its key.
    const action = `${method} ${url} ${text ?? (file ? `${file.name}:${file.size}:${file.lastModified}` : "")}`;
    if (write) {
      const idempotencyKey = pending.get(action) ?? crypto.randomUUID();
      pending.set(action, idempotencyKey);
      headers["idempotency-key"] = idempotencyKey;
    }
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body: file ?? text, cache: "no-store" });
    } catch {
      throw new ApiError(0, "The server cannot be reached; is it running?", null);
    }
    if (write && !outcomeUnknown(response.status)) pending.delete(action);
    if (!response.ok) {
      const error = await errorOf(response);
      if (response.status === 401) onUnauthorized(error);
      throw error;
    }
    return response;
  }
  return {
    async get<T>(path: string, query?: Query) {
      return (await (await call("GET", urlOf(path, query))).json()) as T;
    },
    async list<T>(path: string, query?: Query) {
      const response = await call("GET", urlOf(path, query));
      const body = (await response.json()) as { data: T[] };
      return { data: body.data, next: nextCursor(response.headers.get("link")) };
    },
    async send<T>(method: "POST" | "PATCH" | "DELETE", path: string, body?: unknown) {
      return (await (await call(method, urlOf(path), body)).json()) as T;
    },
    async upload<T>(path: string, file: File) {
      return (await (await call("POST", urlOf(path), file)).json()) as T;
    },
  };
}

/** What to show for a failed call: the message, and the request id to quote when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    return error.requestId ? `${error.message} (request ${error.requestId})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
