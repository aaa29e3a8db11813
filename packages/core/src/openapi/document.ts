import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import { ErrorBody } from "../contract/errors.ts";
import { isKept, takesIdempotencyKey } from "../service/idempotency.ts";
import { type AnyRoute, API_BASE, type ApiBase, fullPath } from "../service/route.ts";
import { ROUTES } from "../service/routes/index.ts";
import { RESPONSE_HEADERS } from "./headers.ts";
import { webhookDocs } from "./webhooks.ts";

export const API_VERSION = "1.0.0";

const errorContent = { "application/json": { schema: ErrorBody } };

/** Raw bytes, as an upload sends them and the media content routes answer them. */
const BYTES = { type: "string", format: "binary" } as const;

/** Why an operation answers 503 when the store cannot be reached (StoreUnavailableError). */
const STORE_UNAVAILABLE =
  "The service's database cannot be reached right now (restarting, or the connection is down or too slow): retry after Retry-After seconds; a write with the same Idempotency-Key, so it is made once.";

/**
 * The store-down answer, one component every operation that reads the store refers to. No RateLimit
 * headers: the answer comes from the error itself, after whatever the request got to.
 */
const storeUnavailableResponse: ZodOpenApiResponseObject = {
  id: "StoreUnavailable",
  description: STORE_UNAVAILABLE,
  headers: z.object({
    "X-Request-Id": RESPONSE_HEADERS.requestId,
    "Retry-After": RESPONSE_HEADERS.retryAfter,
  }),
  content: errorContent,
};

/** Retry-After on a 503 an operation also answers for a cause of its own, which sends none. */
const retryAfterWhenStoreDown = z.string().optional().meta({
  description: "Sent when the 503 is the database's: seconds to wait before trying again.",
});

/** Whether the route answers the store-down 503 (every route but those that say they never do). */
const answersStoreDown = (route: AnyRoute) => route.storeUnavailable !== false;

/** Statuses every operation of a kind shares, added from the route's `auth` and `body`. */
function sharedResponses(route: AnyRoute): Record<number, string> {
  const out: Record<number, string> = {};
  if (route.auth) {
    out[401] = "The key is missing, malformed or revoked (`Invalid or revoked API key.`).";
    out[429] = "Too many requests for the key, or the plan's monthly API calls are used; see Retry-After.";
  }
  if (route.body) {
    out[400] = "The body is not JSON, or a field is not what it must be; the message names it.";
    out[413] = "The body is larger than 1 MiB.";
    out[415] =
      "The Content-Type is not application/json, or the body is compressed (Content-Encoding other than identity).";
  }
  if (takesIdempotencyKey(route)) {
    out[400] ??= "The Idempotency-Key is not 1 to 255 printable ASCII characters.";
    out[409] = "A request with the same Idempotency-Key is still in progress; retry it shortly.";
    out[422] = "The Idempotency-Key was used for a different request; send a new key.";
  }
  out[500] = "An unexpected error; the message carries the request id.";
  if (answersStoreDown(route)) out[503] = STORE_UNAVAILABLE;
  return out;
}

/** A list paged with an opaque cursor, linked from the Link header. */
function isPaged(route: AnyRoute): boolean {
  return route.query instanceof z.ZodObject && "cursor" in route.query.shape;
}

/** The headers an answer of the route with this status carries. */
function responseHeaders(route: AnyRoute, status: number) {
  const h = RESPONSE_HEADERS;
  // Authentication comes before the rate limit, and an unexpected error answers without its headers.
  const limited = route.auth && status !== 401 && status < 500;
  return z.object({
    "X-Request-Id": h.requestId,
    ...(limited ? { "RateLimit-Policy": h.rateLimitPolicy, RateLimit: h.rateLimit } : {}),
    ...(status === 429 ? { "Retry-After": h.retryAfter } : {}),
    ...(status === 503 && answersStoreDown(route)
      ? { "Retry-After": route.responses[503] ? retryAfterWhenStoreDown : h.retryAfter }
      : {}),
    ...(status === 401 ? { "WWW-Authenticate": h.wwwAuthenticate } : {}),
    // Only answers that made a change are kept for a key (isKept), so only those can be replayed.
    ...(takesIdempotencyKey(route) && isKept(status) ? { "Idempotent-Replayed": h.idempotentReplayed } : {}),
    ...(status === 200 && isPaged(route) ? { Link: h.link } : {}),
  });
}

const idempotencyHeader = z.object({
  "Idempotency-Key": z.string().min(1).max(255).optional().meta({
    description:
      "Makes a retry safe: once a request with this key has made its change (a 2xx answer), the same request with the same key within 24 hours replays that answer (with Idempotent-Replayed: true) instead of running again. An error answer is not kept: fix the cause and retry with the same key to make the change.",
  }),
});

function operation(route: AnyRoute): ZodOpenApiOperationObject {
  const responses: NonNullable<ZodOpenApiOperationObject["responses"]> = {};
  const shared = sharedResponses(route);
  for (const [status, description] of Object.entries(shared)) {
    responses[status as `4${string}`] =
      status === "503"
        ? storeUnavailableResponse
        : { description, headers: responseHeaders(route, Number(status)), content: errorContent };
  }
  for (const [status, spec] of Object.entries(route.responses)) {
    const isError = Number(status) >= 400;
    const schema = spec.schema ?? (isError ? ErrorBody : undefined);
    // An operation's own causes come first; the causes every operation of its kind shares follow.
    const also = isError ? shared[Number(status)] : undefined;
    responses[status as `2${string}`] = {
      description: also ? `${spec.description} Also: ${also}` : spec.description,
      headers: responseHeaders(route, Number(status)),
      ...(route.page
        ? { content: { "text/html": { schema: { type: "string" } } } }
        : spec.bytes
          ? { content: Object.fromEntries(spec.bytes.map((type) => [type, { schema: BYTES }])) }
          : schema
            ? { content: { "application/json": { schema } } }
            : {}),
    };
  }
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    security: route.auth ? [{ bearerAuth: [] }] : [],
    ...(route.params || route.query || takesIdempotencyKey(route)
      ? {
          requestParams: {
            ...(route.params ? { path: route.params } : {}),
            ...(route.query ? { query: route.query as never } : {}),
            ...(takesIdempotencyKey(route) ? { header: idempotencyHeader } : {}),
          },
        }
      : {}),
    ...(route.body
      ? {
          requestBody: {
            required: !route.body.optional,
            content: {
              "application/json": { schema: route.body.schema },
              // An upload: the bytes themselves, as image/* or video/*.
              ...(route.upload ? { "image/*": { schema: BYTES }, "video/*": { schema: BYTES } } : {}),
            },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document, generated from the route table and the contract's zod schemas. Its server
 * is `base`: /api/v1, or /v1 for the document served under /v1 (the same API at its other address).
 */
export function buildOpenApiDocument(
  routes: readonly AnyRoute[] = ROUTES,
  base: ApiBase = API_BASE,
): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    // Paths are relative to the server URL (/api/v1); /healthz lives at the root, so it names its own.
    const key = route.root ? fullPath(route) : route.path;
    const item = paths[key] ?? (route.root ? { servers: [{ url: "/" }] } : {});
    paths[key] = item;
    const method = route.method.toLowerCase() as "get" | "post" | "delete" | "patch";
    item[method] = operation(route);
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "socialpub API",
      version: API_VERSION,
      description:
        "Publish and schedule social posts to several networks with one request, and read reach and engagement.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: base }],
    tags: [
      { name: "Account", description: "The current user, the plan's limits and this month's usage." },
      {
        name: "Keys",
        description:
          "API keys of the account (extension): what the dashboard's Settings → API keys page uses.",
      },
      { name: "Posts", description: "Publish, schedule, edit and read posts, and what each network did." },
      { name: "Accounts", description: "Connect and disconnect the social profiles posts go to." },
      { name: "Analytics", description: "Reach and engagement across published posts." },
      { name: "Media", description: "Images and videos to attach to posts." },
      { name: "Webhooks", description: "Standard Webhooks endpoints that receive events." },
      { name: "Sandbox", description: "Simulated networks: report metrics as a network would." },
      { name: "Service", description: "Health and this document; no key needed." },
    ],
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API key: sp_test_… or sp_live_…" },
      },
    },
    paths,
    webhooks: webhookDocs(),
  });
}
