import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { DEFAULT_BASE_URL, SocialPublishClient } from "@socialpub/core";
import { Agent } from "undici";
import { BEARER_KEY_SOURCE, isWellFormedKey } from "./key-source.ts";
import { createSocialpubMcpServer } from "./server.ts";

export const MCP_PATH = "/mcp";

export interface HttpServerOptions {
  /** The socialpub API every call goes to, with its version segment. Default: the local reference server. */
  baseUrl?: string;
  /** Default 3333; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Called with one line per refused or failed request; never given a key. */
  log?: (line: string) => void;
}

export interface RunningHttpServer {
  /** e.g. http://127.0.0.1:3333/mcp */
  url: string;
  close(): Promise<void>;
}

const MISSING_KEY =
  "Send the socialpub API key of the account to act for as Authorization: Bearer sp_test_… or sp_live_… (a key with 32 or more letters and digits after the prefix).";

/**
 * The MCP server over Streamable HTTP, for remote agents. Stateless: every POST to /mcp carries its own
 * bearer key and gets a server and client of its own, so one agent's key never serves another's call.
 * A missing or malformed key is answered 401 before anything else, as the API answers it.
 */
export async function startHttpServer(options: HttpServerOptions = {}): Promise<RunningHttpServer> {
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
  const log = options.log ?? (() => {});
  // One connection pool to the API for every request's client.
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  // Checked once at start, so a wrong address fails here rather than in every call.
  await new SocialPublishClient({ apiKey: "sp_test_check", baseUrl, dispatcher: agent }).close();

  const server: Server = createServer((req, res) => {
    handle(req, res, baseUrl, agent).catch((error: unknown) => {
      log(`MCP request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) jsonRpcError(res, 500, -32603, "The MCP server failed to answer this request.");
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 3333, options.host ?? "127.0.0.1", () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}${MCP_PATH}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await agent.close();
    },
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  baseUrl: string,
  agent: Agent,
): Promise<void> {
  const path = new URL(req.url ?? "/", "http://localhost").pathname;
  if (path !== MCP_PATH) return jsonRpcError(res, 404, -32600, `Not found: the MCP endpoint is ${MCP_PATH}.`);
  if (req.method !== "POST") {
    res.setHeader("allow", "POST");
    return jsonRpcError(res, 405, -32600, "This MCP server is stateless: send each message as a POST.");
  }
  const apiKey = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? "")?.[1];
  if (!apiKey || !isWellFormedKey(apiKey)) {
    res.setHeader("www-authenticate", "Bearer");
    return jsonRpcError(res, 401, -32001, MISSING_KEY);
  }

  const client = new SocialPublishClient({ apiKey, baseUrl, dispatcher: agent });
  const server = createSocialpubMcpServer({ client, keySource: BEARER_KEY_SOURCE });
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on("close", () => {
    void transport.close();
    void server.close();
    void client.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
