import { buildOpenApiDocument } from "../../openapi/document.ts";
import type { RequestContext } from "../context.ts";
import { HttpError } from "../http-error.ts";
import { json } from "../responses.ts";

let cachedDocument: string | undefined;

/** GET /api/v1/openapi.json: built on first request, then kept (the routes never change at runtime). */
export async function getOpenApi(): Promise<Response> {
  cachedDocument ??= JSON.stringify(buildOpenApiDocument());
  return new Response(cachedDocument, {
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
