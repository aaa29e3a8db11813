#!/usr/bin/env node
import { parseArgs } from "node:util";
import { startHttpServer } from "./http.ts";
import { ConfigurationError, runStdioServer } from "./stdio.ts";

const USAGE = `Usage:
  socialpub-mcp                      over stdio (for Claude Desktop, Cursor, …): SOCIALPUB_API_KEY and
                                     SOCIALPUB_BASE_URL from the environment
  socialpub-mcp --http [--port 3333] [--host 127.0.0.1]
                                     over Streamable HTTP at /mcp: each request brings its key as
                                     Authorization: Bearer …; SOCIALPUB_BASE_URL from the environment`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      http: { type: "boolean" },
      port: { type: "string" },
      host: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return void console.log(USAGE);
  if (!values.http) {
    if (values.port !== undefined || values.host !== undefined)
      throw new ConfigurationError("--port and --host go with --http.");
    return runStdioServer();
  }
  const port = values.port === undefined ? 3333 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigurationError(`--port must be a port number (0 to 65535), not ${values.port}.`);
  const server = await startHttpServer({
    baseUrl: process.env.SOCIALPUB_BASE_URL || undefined,
    port,
    host: values.host,
    log: (line) => console.error(line),
  });
  console.error(`socialpub MCP server at ${server.url}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  // A configuration error is the user's to fix: its message alone, no stack.
  console.error(error instanceof ConfigurationError || error instanceof TypeError ? error.message : error);
  console.error(USAGE);
  process.exit(1);
});
