import { authenticate } from "./auth.ts";
import { readJsonBody } from "./body.ts";
import type { RequestContext, ServiceDeps } from "./context.ts";
import { badRequest, HttpError } from "./http-error.ts";
import { countApiCall, type RateLimiter } from "./limits.ts";
import type { AnyRoute } from "./route.ts";
import { describeBodyError } from "./zod-errors.ts";

export interface PipelineOptions {
  maxBodyBytes: number;
  rateLimiter: RateLimiter | null;
}

/**
 * Runs one matched route: authenticate, apply the limits, validate query and body, call the handler.
 * Throws HttpError for every refusal; the caller turns it into the response.
 */
export async function runRoute(
  route: AnyRoute,
  request: Request,
  params: Record<string, string>,
  requestId: string,
  deps: ServiceDeps,
  options: PipelineOptions,
): Promise<Response> {
  const url = new URL(request.url);
  const ctx = { deps, request, url, requestId, params, query: {}, body: undefined } as RequestContext;
  let rateHeaders: Record<string, string> = {};
  if (route.auth) {
    ctx.caller = await authenticate(request, deps.store);
    if (options.rateLimiter) rateHeaders = options.rateLimiter.take(ctx.caller.key.id);
  }
  try {
    if (route.auth) await countApiCall(deps.store, ctx.caller, deps.clock.now());
    if (route.query) ctx.query = parseQuery(route, url);
    if (route.body) ctx.body = await parseBody(route, request, options.maxBodyBytes);
    const response = await route.handler(ctx);
    for (const [name, value] of Object.entries(rateHeaders)) response.headers.set(name, value);
    return response;
  } catch (err) {
    // A refused request still tells the client where it stands against the rate limit.
    if (err instanceof HttpError) Object.assign(err.headers, rateHeaders);
    throw err;
  }
}

function parseQuery(route: AnyRoute, url: URL): unknown {
  const parsed = route.query!.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw badRequest(`Query: ${describeBodyError(parsed.error)}`);
  return parsed.data;
}

async function parseBody(route: AnyRoute, request: Request, maxBytes: number): Promise<unknown> {
  const raw = await readJsonBody(request, maxBytes, route.body!.optional === true);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw badRequest("Request body must be a JSON object.");
  }
  const parsed = route.body!.schema.safeParse(raw);
  if (!parsed.success) throw badRequest(describeBodyError(parsed.error));
  return parsed.data;
}
