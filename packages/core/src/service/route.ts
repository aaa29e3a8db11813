import type { z } from "zod";
import type { Caller, RequestContext, ServiceDeps } from "./context.ts";

export type Method = "GET" | "POST" | "DELETE" | "PATCH";
export type Tag =
  | "Account"
  | "Keys"
  | "Posts"
  | "Accounts"
  | "Analytics"
  | "Media"
  | "Webhooks"
  | "Sandbox"
  | "Service";

export interface ResponseSpec {
  description: string;
  /** JSON body schema; none for responses without a JSON body. */
  schema?: z.ZodType;
  /** The answer is raw bytes of one of these media types (e.g. `image/*`), not JSON. */
  bytes?: readonly string[];
}

/**
 * One operation: everything the router and the OpenAPI document need to know about it. The statuses
 * every operation of a kind shares (401 and 429 with a key, 400/413/415 with a JSON body, 503 while
 * the store is unreachable) are added from `auth`, `body` and `storeUnavailable` rather than repeated.
 */
export interface Route<Body = unknown, Query = unknown> {
  method: Method;
  /** OpenAPI form (`/posts/{id}`), relative to /api/v1 unless `root`. */
  path: string;
  /** Served at the site root rather than under /api/v1 (/healthz). */
  root?: boolean;
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** Requires `Authorization: Bearer <key>`; counts against the plan's API calls. */
  auth: boolean;
  body?: { schema: z.ZodType<Body>; optional?: boolean };
  /**
   * Also accepts raw bytes whose Content-Type matches (an upload): the handler gets them as
   * `ctx.upload` instead of a JSON body.
   */
  upload?: { types: RegExp; description: string };
  /**
   * true: a PATCH that honours Idempotency-Key as POST and DELETE do (every POST and DELETE with a key
   * does): an edit whose retry must not apply it twice over a change made in between. false: a POST
   * that takes none, because its answer holds a secret the store never keeps (POST /keys), or because
   * it changes nothing (POST /posts/validate).
   */
  idempotencyKey?: boolean;
  /**
   * The handler's first store write carries `keptAnswer`'s answer, and nothing outside the store
   * changes before it: that write then claims the Idempotency-Key in its own transaction, instead of a
   * write of its own before the handler runs (see `withClaimInChange`).
   */
  claimsKeyWithChange?: true;
  /**
   * The answer kept for an Idempotency-Key is not the one sent (a secret in it is kept sealed): this
   * turns the kept body back into the answer a retry replays.
   */
  replayKept?: (deps: ServiceDeps, caller: Caller, kept: string) => string;
  /**
   * Answers a small HTML page for a person's browser instead of JSON (where an OAuth network sends
   * the user back): its own responses, errors included, are documented as text/html.
   */
  page?: true;
  /**
   * Never answers the 503 with Retry-After that every other operation answers while the store is
   * unreachable: it reads no store (the OpenAPI document, an upload's bytes at their capability URL), or
   * answers that case its own way (/healthz).
   */
  storeUnavailable?: false;
  query?: z.ZodType<Query>;
  params?: z.ZodObject;
  responses: Record<number, ResponseSpec>;
  handler(ctx: RequestContext<Body, Query>): Promise<Response>;
}

// biome-ignore lint/suspicious/noExplicitAny: the table holds routes of every body and query type.
export type AnyRoute = Route<any, any>;

/** Keeps each route's handler typed by its own schemas while the table holds them all. */
export function defineRoute<Body = undefined, Query = undefined>(route: Route<Body, Query>): AnyRoute {
  return route;
}

export const API_BASE = "/api/v1";
/** The contract's other address form: every route under /api/v1 also answers under /v1. */
export const SHORT_API_BASE = "/v1";
export type ApiBase = typeof API_BASE | typeof SHORT_API_BASE;

/** The full path of a route under `base` (/api/v1 unless told), in OpenAPI form. */
export function fullPath(route: AnyRoute, base: ApiBase = API_BASE): string {
  return route.root ? route.path : `${base}${route.path}`;
}

/**
 * The prefix a request reached the API by, so the addresses an answer gives (Link, media URLs, the
 * OpenAPI document's server) use the form the client used.
 */
export function apiBaseOf(url: URL): ApiBase {
  return url.pathname.startsWith("/v1/") ? SHORT_API_BASE : API_BASE;
}
