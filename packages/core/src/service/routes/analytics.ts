import { SandboxMetricsBody } from "../../contract/requests.ts";
import { Analytics, Target } from "../../contract/resources.ts";
import { getAnalytics } from "../handlers/analytics.ts";
import { reportSandboxMetrics } from "../handlers/sandbox-metrics.ts";
import { type AnyRoute, defineRoute } from "../route.ts";
import { notFound } from "./params.ts";

/** Reach and engagement, and the sandbox's way to set them. */
export const ANALYTICS_ROUTES: readonly AnyRoute[] = [
  defineRoute({
    method: "GET",
    path: "/analytics",
    operationId: "getAnalytics",
    tag: "Analytics",
    summary: "Reach and engagement across published posts, per network",
    auth: true,
    responses: { 200: { description: "The analytics summary.", schema: Analytics } },
    handler: getAnalytics,
  }),
  defineRoute({
    method: "POST",
    path: "/sandbox/metrics",
    operationId: "reportSandboxMetrics",
    tag: "Sandbox",
    summary: "Report a sandbox network's figures for a published post (test keys only)",
    auth: true,
    body: { schema: SandboxMetricsBody },
    responses: {
      200: { description: "The network's result with its figures.", schema: Target },
      400: { description: "The post does not target the network, or the network did not publish it." },
      403: { description: "A live key was used." },
      404: notFound,
    },
    handler: reportSandboxMetrics,
  }),
];
