import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { DEFAULT_BASE_URL, SocialPublishClient } from "@socialpub/core";
import { ENV_KEY_SOURCE, isWellFormedKey } from "./key-source.ts";
import { createSocialpubMcpServer } from "./server.ts";

/** Thrown for a configuration the server cannot start with; the message says what to set. */
export class ConfigurationError extends Error {}

/**
 * The MCP server over stdio, as an MCP client starts it: the key and the API's address from the
 * environment. Resolves when the client closes the connection.
 */
export async function runStdioServer(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const apiKey = env.SOCIALPUB_API_KEY?.trim();
  if (!apiKey)
    throw new ConfigurationError(
      "SOCIALPUB_API_KEY is not set: add your sp_test_… or sp_live_… key to the env of this server's entry in your MCP client's configuration.",
    );
  if (!isWellFormedKey(apiKey))
    throw new ConfigurationError(
      "SOCIALPUB_API_KEY is not a socialpub key: it starts with sp_test_ or sp_live_ and has 32 or more letters and digits after that; check how it was copied.",
    );
  let client: SocialPublishClient;
  try {
    client = new SocialPublishClient({ apiKey, baseUrl: env.SOCIALPUB_BASE_URL || DEFAULT_BASE_URL });
  } catch (error) {
    throw new ConfigurationError(`SOCIALPUB_BASE_URL: ${(error as Error).message}`);
  }
  const server = createSocialpubMcpServer({ client, keySource: ENV_KEY_SOURCE });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  process.stdin.once("end", () => void server.close());
  await closed;
  await client.close();
}
