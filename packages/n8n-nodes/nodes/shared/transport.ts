import type {
  IDataObject,
  IExecuteFunctions,
  IHookFunctions,
  IHttpRequestMethods,
  IHttpRequestOptions,
  ILoadOptionsFunctions,
  JsonObject,
} from "n8n-workflow";
import { NodeApiError, NodeOperationError } from "n8n-workflow";

/** The one credential type every node here uses. */
export const CREDENTIAL_TYPE = "socialPublishApi";

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions;

export interface ApiCall {
  method: IHttpRequestMethods;
  /** Path under the base URL, starting with a slash, e.g. "/posts". */
  path: string;
  qs?: IDataObject;
  /** A JSON body, or raw bytes sent with `contentType`. */
  body?: IDataObject | Buffer;
  contentType?: string;
  idempotencyKey?: string;
  /** The input item the call belongs to, so n8n shows the error on that item. */
  itemIndex?: number;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string | undefined>;
  body: T;
}

interface FullResponse {
  statusCode: number;
  headers: Record<string, unknown>;
  body: unknown;
}

/** The credential's base URL without trailing slashes; refuses anything that is not http(s). */
export async function getBaseUrl(this: ApiContext, itemIndex?: number): Promise<string> {
  const credentials = await this.getCredentials<{ baseUrl?: string }>(CREDENTIAL_TYPE, itemIndex);
  const baseUrl = withoutTrailingSlashes(String(credentials.baseUrl ?? "").trim());
  if (!/^https?:\/\/[^/]/i.test(baseUrl)) {
    throw new NodeOperationError(this.getNode(), `The Base URL "${baseUrl}" is not an http(s) address`, {
      description:
        "Open the Social Publish API credential and set Base URL to the service's address including /api/v1, e.g. http://127.0.0.1:8787/api/v1.",
      itemIndex,
    });
  }
  return baseUrl;
}

/**
 * `text` without the slashes it ends with: a loop from the end, since `/\/+$/` retries from every slash
 * of a long run (quadratic in the run), and the base URL is what the user typed into the credential.
 */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--;
  return text.slice(0, end);
}

function flattenHeaders(headers: Record<string, unknown>): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    flat[name.toLowerCase()] = Array.isArray(value)
      ? value.join(", ")
      : value == null
        ? undefined
        : String(value);
  }
  return flat;
}

function parseBody(body: unknown): unknown {
  if (Buffer.isBuffer(body)) body = body.toString("utf8");
  if (typeof body !== "string") return body;
  if (body === "") return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * Sends one authenticated request and answers whatever status the service returns. Only a failure to
 * reach the service at all (refused connection, DNS, timeout) becomes an error here.
 */
export async function sendRequest(this: ApiContext, call: ApiCall): Promise<ApiResponse> {
  const baseUrl = await getBaseUrl.call(this, call.itemIndex);
  const headers: IDataObject = { Accept: "application/json" };
  if (call.idempotencyKey) headers["Idempotency-Key"] = call.idempotencyKey;
  const isRaw = Buffer.isBuffer(call.body);
  if (isRaw) headers["Content-Type"] = call.contentType ?? "application/octet-stream";

  const options: IHttpRequestOptions = {
    method: call.method,
    url: `${baseUrl}${call.path}`,
    headers,
    json: !isRaw,
    returnFullResponse: true,
    ignoreHttpStatusErrors: true,
    // A redirect would drop the bearer token on some hops and hide a misconfigured base URL.
    disableFollowRedirect: true,
  };
  if (call.qs && Object.keys(call.qs).length > 0) options.qs = call.qs;
  if (call.body !== undefined) options.body = call.body;

  let response: FullResponse;
  try {
    response = (await this.helpers.httpRequestWithAuthentication.call(
      this,
      CREDENTIAL_TYPE,
      options,
    )) as FullResponse;
  } catch (error) {
    // A plain object, not the raw error: n8n would replace our message with a generic one for codes
    // such as ECONNREFUSED, and this one names the address that failed.
    const reason = (error as Error).message;
    throw new NodeApiError(this.getNode(), { error: reason } as JsonObject, {
      message: `Could not reach the Social Publish API at ${baseUrl}`,
      description: `${reason}. Check that the service is running and that the credential's Base URL is right.`,
      itemIndex: call.itemIndex,
    });
  }
  return {
    status: response.statusCode,
    headers: flattenHeaders(response.headers),
    body: parseBody(response.body),
  };
}

/** What to tell the user beyond the service's own message, by status. */
function hintFor(response: ApiResponse): string | undefined {
  const requestId = response.headers["x-request-id"];
  const hints: string[] = [];
  if (response.status === 401) {
    hints.push("Check the API key in the Social Publish API credential: it may be mistyped or revoked.");
  } else if (response.status === 429) {
    const retryAfter = response.headers["retry-after"];
    hints.push(
      retryAfter
        ? `The service asks to retry after ${retryAfter} seconds.`
        : "Too many requests: retry later.",
    );
  } else if (response.status === 409 && /idempotency-key/i.test(errorMessageOf(response))) {
    // Only for the key's own 409: a post's state (published, publishing, nothing failed) says itself.
    hints.push("A request with the same idempotency key is still in progress: retry in a moment.");
  } else if (response.status >= 500) {
    hints.push("The service failed: retry later, or enable Retry On Fail in the node's settings.");
  }
  if (requestId) hints.push(`Request id: ${requestId}`);
  return hints.length > 0 ? hints.join(" ") : undefined;
}

/** The service's own error message (`{"error": "..."}`), or a plain description of the status. */
export function errorMessageOf(response: ApiResponse): string {
  const body = response.body as { error?: unknown } | undefined;
  if (body && typeof body === "object" && typeof body.error === "string" && body.error !== "") {
    return body.error;
  }
  return `The service answered HTTP ${response.status}`;
}

/**
 * A NodeApiError carrying the service's message, status and request id. The status and request id are
 * also kept as data in the error's context, for the item Continue On Fail outputs (see errorItem).
 */
export function apiError(this: ApiContext, response: ApiResponse, itemIndex?: number): NodeApiError {
  const message = errorMessageOf(response);
  const error = new NodeApiError(
    this.getNode(),
    { error: message, statusCode: response.status } as JsonObject,
    {
      message,
      description: hintFor(response),
      httpCode: String(response.status),
      itemIndex,
    },
  );
  error.context.httpStatus = response.status;
  const requestId = response.headers["x-request-id"];
  if (requestId) error.context.requestId = requestId;
  return error;
}

/** Sends a request and returns the body of a 2xx answer; anything else throws a NodeApiError. */
export async function apiRequest(this: ApiContext, call: ApiCall): Promise<IDataObject> {
  const response = await sendRequest.call(this, call);
  if (response.status < 200 || response.status >= 300) throw apiError.call(this, response, call.itemIndex);
  return response.body as IDataObject;
}
