import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  AuthenticationError,
  ConnectionError,
  RateLimitError,
  SocialPublishError,
  TimeoutError,
  UnprocessableEntityError,
} from "@socialpub/core";
import type { z } from "zod";

/** How this server was given its key, so a refused key comes with where to fix it. */
export interface KeySource {
  /** e.g. "Check SOCIALPUB_API_KEY in this MCP server's configuration." */
  fixKey: string;
  /** e.g. "Check SOCIALPUB_BASE_URL …"; said when the service cannot be reached. */
  fixBaseUrl: string;
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * A failed call as a tool error a model can act on: the service's own message (which says what to
 * fix), its status and request id, and for a refused key or an unreachable service where to fix that.
 * Never a stack, never the key: the client's messages carry neither.
 */
export function errorResult(error: unknown, keySource: KeySource): CallToolResult {
  if (!(error instanceof SocialPublishError)) {
    const message = error instanceof Error ? error.message : String(error);
    return toolError(`The tool failed: ${message}`);
  }
  const parts = [error.message];
  if (error instanceof AuthenticationError) parts.push(keySource.fixKey);
  if (error instanceof ConnectionError || error instanceof TimeoutError) parts.push(keySource.fixBaseUrl);
  if (error instanceof RateLimitError && error.retryAfter !== null)
    parts.push(`Try again in ${error.retryAfter} s.`);
  if (error instanceof UnprocessableEntityError)
    parts.push("Pass a new idempotency_key to make this call as a new request.");
  const context = [
    error.status === null ? null : `HTTP ${error.status}`,
    error.requestId && `request id ${error.requestId}`,
  ]
    .filter(Boolean)
    .join(", ");
  return toolError(context ? `${parts.join(" ")} (${context})` : parts.join(" "));
}

/** Arguments that do not match a tool's schema, each wrong field named with what it needs. */
export function invalidArguments(toolName: string, error: z.ZodError): CallToolResult {
  const lines = error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join(".") : "arguments";
    return `- ${field}: ${issue.message}`;
  });
  return toolError(`Invalid arguments for ${toolName}:\n${lines.join("\n")}`);
}
