import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { SocialPublishClient } from "@socialpub/core";
import { z } from "zod";
import { derivedIdempotencyKey } from "./idempotency.ts";
import { toolInputSchema } from "./json-schema.ts";
import { registerPrompts } from "./prompts.ts";
import { registerResources } from "./resources.ts";
import type { ToolSpec } from "./tool.ts";
import { errorResult, invalidArguments, type KeySource } from "./tool-error.ts";
import { TOOLS } from "./tools.ts";
import { MCP_VERSION } from "./version.ts";

export interface SocialpubMcpOptions {
  /** The typed client every tool calls through, with the caller's key. */
  client: SocialPublishClient;
  /** What a refused key or an unreachable service should tell the user to check. */
  keySource: KeySource;
  /** The tools to offer; every tool by default. */
  tools?: readonly ToolSpec[];
}

const IdempotencyKeyArgument = z
  .string()
  .regex(/^[\x20-\x7e]{1,255}$/, "1 to 255 printable ASCII characters")
  .optional()
  .describe(
    "leave out: a key derived from this call is sent, so retrying the same call never does it twice; set a new one to repeat a call on purpose",
  );

interface OfferedTool {
  spec: ToolSpec;
  input: z.ZodObject;
  listed: Tool;
}

function offer(spec: ToolSpec): OfferedTool {
  // Strict: a misspelt argument is refused by name instead of silently dropped (a post without its text).
  const input = (
    spec.write ? spec.input.extend({ idempotency_key: IdempotencyKeyArgument }) : spec.input
  ).strict();
  return {
    spec,
    input,
    listed: {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: toolInputSchema(input),
      annotations: { title: spec.title, ...spec.annotations },
    },
  };
}

/**
 * The socialpub MCP server: tools, resources and prompts over one typed client. Tools are served with
 * the SDK's low-level handlers so that their input schemas are the contract's, written out in full
 * (see json-schema.ts); resources and prompts use McpServer's own registration.
 */
export function createSocialpubMcpServer(options: SocialpubMcpOptions): McpServer {
  const { client, keySource } = options;
  const server = new McpServer(
    { name: "socialpub", title: "socialpub", version: MCP_VERSION },
    {
      instructions:
        "Publish and schedule social posts through socialpub. Before writing a post, read socialpub://networks/rules and call list_accounts: only connected networks receive posts, and each network has its own text limit and media needs.",
    },
  );
  const tools = new Map((options.tools ?? TOOLS).map((spec) => [spec.name, offer(spec)]));

  server.server.registerCapabilities({ tools: { listChanged: false } });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((tool) => tool.listed),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}.`);
    const parsed = tool.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) return invalidArguments(tool.spec.name, parsed.error);
    const { idempotency_key, ...args } = parsed.data as Record<string, unknown>;
    try {
      let idempotencyKey = "";
      if (tool.spec.write) {
        const state = await tool.spec.write.keyState?.(client, args, extra.signal);
        idempotencyKey =
          typeof idempotency_key === "string"
            ? idempotency_key
            : derivedIdempotencyKey(tool.spec.name, args, state);
      }
      const result = await tool.spec.run(args, { client, idempotencyKey, signal: extra.signal });
      return {
        content: [{ type: "text", text: JSON.stringify(result, null, 2) }],
        structuredContent: result as Record<string, unknown>,
      };
    } catch (error) {
      return errorResult(error, keySource);
    }
  });

  registerResources(server, client, keySource);
  registerPrompts(server);
  return server;
}
