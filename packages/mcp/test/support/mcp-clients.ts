import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { binOf } from "./reference-server.ts";

export interface StdioConnection {
  client: Client;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/**
 * The package's bin started the way an MCP client's configuration starts it: `node <bin>` with
 * SOCIALPUB_API_KEY and SOCIALPUB_BASE_URL in its environment, spoken to over stdio.
 */
export async function connectStdio(env: Record<string, string>): Promise<StdioConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binOf("@socialpub/mcp", "socialpub-mcp")],
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "socialpub-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** An agent talking to the HTTP server with its own key (or none). */
export async function connectHttp(url: string, apiKey: string | null): Promise<Client> {
  const headers: Record<string, string> = apiKey === null ? {} : { authorization: `Bearer ${apiKey}` };
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: "socialpub-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** A tool call's result, typed, with its one text content. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : "";
  return { ...result, text, isError: result.isError === true };
}

/** The JSON answer of a tool call that must succeed. */
export async function callOk<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${result.text}`);
  return JSON.parse(result.text) as T;
}
