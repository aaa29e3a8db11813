import { authenticate } from "./auth.ts";
import { decodeBody, isJsonContentType, mediaTypeOf, parseJsonText, readBodyBytes } from "./body.ts";
import type { KeepAnswer, ServiceDeps } from "./context.ts";
import { badRequest, HttpError } from "./http-error.ts";
import { idempotencyKeyOf, requestFingerprint, takesIdempotencyKey, withIdempotency } from "./idempotency.ts";
import { checkMonthlyCalls, type RateLimiter } from "./limits.ts";
import { noAnswer, PipelineContext } from "./pipeline-context.ts";
import { errorResponse, withHeaders } from "./responses.ts";
import type { AnyRoute } from "./route.ts";
import { describeBodyError } from "./zod-errors.ts";

export interface PipelineOptions {
  maxBodyBytes: number;
  rateLimiter: RateLimiter | null;
}

/**
 * Runs one matched route: authenticate, apply the limits, read the body, honour an Idempotency-Key on
 * writes, validate, call the handler. Throws HttpError for refusals that come before the handler runs.
 */
export async function runRoute(
  route: AnyRoute,
  request: Request,
  params: Record<string, string>,
  requestId: string,
  deps: ServiceDeps,
  options: PipelineOptions,
): Promise<Response> {
  const ctx = new PipelineContext(deps, request, requestId, params);
  let rateHeaders: Record<string, string> | null = null;
  const now = deps.clock.now();
  if (route.auth) ctx.caller = await authenticate(request, deps.store, now);
  try {
    if (route.auth) {
      // authenticate counted the call toward the month, so one the short-term limit refuses counts too
      // (decisions.md); that refusal, with its RateLimit headers, is the answer before the month's.
      if (options.rateLimiter) rateHeaders = await options.rateLimiter.take(ctx.caller.key.id);
      checkMonthlyCalls(ctx.caller, now);
    }
    const rawBody = route.body ? await readBodyBytes(request, options.maxBodyBytes) : new Uint8Array(0);
    const contentType = request.headers.get("content-type");
    const type = mediaTypeOf(contentType);
    const isUpload = !!route.upload && type !== null && route.upload.types.test(type);
    if (
      route.body &&
      !isUpload &&
      !isJsonContentType(contentType) &&
      !(rawBody.length === 0 && type === null)
    ) {
      // A request without a body needs no Content-Type; one with a body must say what it is.
      const wanted = route.upload ? `application/json, or ${route.upload.description}` : "application/json";
      throw new HttpError(415, `Content-Type must be ${wanted}${type ? `, not ${type}` : ""}.`);
    }
    const key = takesIdempotencyKey(route) ? idempotencyKeyOf(request) : null;

    const handle = async (keep: KeepAnswer = noAnswer) => {
      ctx.keptAnswer = keep;
      try {
        if (route.query) ctx.query = parseQuery(route, ctx.url);
        if (isUpload) ctx.upload = { bytes: rawBody, type: type! };
        else if (route.body) ctx.body = parseBody(route, decodeBody(rawBody));
        return await route.handler(ctx);
      } catch (err) {
        // Answered here rather than by the caller, so an idempotent request can keep the answer.
        if (err instanceof HttpError) return errorResponse(err.status, err.message, err.headers);
        throw err;
      }
    };
    let response = key
      ? await withIdempotency(
          deps.store,
          ctx.caller,
          key,
          await requestFingerprint(request, rawBody),
          now,
          handle,
          route.claimsKeyWithChange === true,
          route.replayKept && ((kept) => route.replayKept!(deps, ctx.caller, kept)),
        )
      : await handle();
    if (rateHeaders) response = withHeaders(response, rateHeaders);
    return response;
  } catch (err) {
    // A refused request still tells the client where it stands against the rate limit.
    if (err instanceof HttpError && rateHeaders) Object.assign(err.headers, rateHeaders);
    throw err;
  }
}

function parseQuery(route: AnyRoute, url: URL): unknown {
  const parsed = route.query!.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw badRequest(describeBodyError(parsed.error));
  return parsed.data;
}

function parseBody(route: AnyRoute, text: string): unknown {
  const raw = parseJsonText(text, route.body!.optional === true);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw badRequest("Request body must be a JSON object.");
  }
  const parsed = route.body!.schema.safeParse(raw);
  if (!parsed.success) throw badRequest(describeBodyError(parsed.error));
  return parsed.data;
}
