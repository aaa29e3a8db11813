import type { RequestContext } from "../context.ts";
import { HttpError } from "../http-error.ts";
import { json } from "../responses.ts";
import { apiBaseOf } from "../route.ts";

/**
 * GET /api/v1/openapi.json (and /v1/openapi.json, whose server is /v1): the document createService
 * builds from its routes (ServiceDeps.openApi).
 */
export async function getOpenApi({ deps, url }: RequestContext): Promise<Response> {
  return new Response(deps.openApi(apiBaseOf(url)), {
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

/** GET /healthz: 200 when the store answers, 503 when it does not. */
export async function getHealth({ deps, requestId }: RequestContext): Promise<Response> {
  try {
    await deps.store.ping();
  } catch (err) {
    deps.logger.warn({ err, request_id: requestId }, "health check: store unreachable");
    throw new HttpError(503, "The store is not reachable.");
  }
  return json(200, { status: "ok" });
}
