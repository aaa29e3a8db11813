import { z } from "zod";
import { getHealth, getOpenApi } from "../handlers/system.ts";
import { type AnyRoute, defineRoute } from "../route.ts";

/** What GET /openapi.json answers, as far as a client relies on it: an OpenAPI 3.1 document. */
const OpenApiDocument = z
  .looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ description: "An OpenAPI 3.1 document: this one." });

/** The service itself: its OpenAPI document and its health. */
export const SYSTEM_ROUTES: readonly AnyRoute[] = [
  defineRoute({
    method: "GET",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    tag: "Service",
    summary: "This document",
    auth: false,
    storeUnavailable: false,
    responses: { 200: { description: "The OpenAPI 3.1 document.", schema: OpenApiDocument } },
    handler: getOpenApi,
  }),
  defineRoute({
    method: "GET",
    path: "/healthz",
    root: true,
    operationId: "getHealth",
    tag: "Service",
    summary: "Answers 200 when the store is reachable",
    auth: false,
    storeUnavailable: false,
    responses: {
      200: {
        description: "The service and its store are up.",
        schema: z.object({ status: z.literal("ok") }),
      },
      503: { description: "The store is not reachable." },
    },
    handler: getHealth,
  }),
];
