import { buildOpenApiDocument } from "../../openapi/document.ts";
import type { RequestContext } from "../context.ts";
import { HttpError } from "../http-error.ts";
import { json } from "../responses.ts";
import { type ApiBase, apiBaseOf } from "../route.ts";
import { ROUTES } from "../routes.ts";

const cachedDocuments = new Map<ApiBase, string>();

/**
 * GET /api/v1/openapi.json (and /v1/openapi.json, whose server is /v1): built on first request, then
 * kept (the routes never change at runtime).
 */
export async function getOpenApi({ url }: RequestContext): Promise<Response> {
  const base = apiBaseOf(url);
  let document = cachedDocuments.get(base);
  if (document === undefined) {
    document = JSON.stringify(buildOpenApiDocument(ROUTES, base));
    cachedDocuments.set(base, document);
  }
  return new Response(document, {
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
