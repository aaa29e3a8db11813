// Public surface of @socialpub/mcp.

export { type HttpServerOptions, MCP_PATH, type RunningHttpServer, startHttpServer } from "./http.ts";
export { derivedIdempotencyKey } from "./idempotency.ts";
export { BEARER_KEY_SOURCE, ENV_KEY_SOURCE } from "./key-source.ts";
export { networkRules } from "./resources.ts";
export { createSocialpubMcpServer, type SocialpubMcpOptions } from "./server.ts";
export { ConfigurationError, runStdioServer } from "./stdio.ts";
export { type ToolCall, type ToolSpec, tool } from "./tool.ts";
export type { KeySource } from "./tool-error.ts";
export { TOOLS } from "./tools.ts";
export { MCP_VERSION } from "./version.ts";
