import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createService, MemoryStore, provisionUser, silentLogger } from "@socialpub/core";

export interface ReferenceServer {
  /** The API base, e.g. http://127.0.0.1:41234/api/v1. */
  baseUrl: string;
  /** A test key of a user with x, bluesky and linkedin connected. */
  apiKey: string;
  close(): Promise<void>;
}

/**
 * The reference service on the system clock, served over HTTP on 127.0.0.1 port 0, with one user:
 * what someone trying the examples has after starting the server in dev mode.
 */
export async function startReferenceServer(): Promise<ReferenceServer> {
  const store = new MemoryStore();
  const service = createService({ store, logger: silentLogger });
  await service.start();
  const { apiKey } = await provisionUser(store, { plan: "creator", accounts: ["x", "bluesky", "linkedin"] });

  const server = createServer(async (req, res) => {
    const response = await service.fetch(await toRequest(req));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    apiKey,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await service.close();
      await store.close();
    },
  };
}

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, one);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    body: hasBody ? new Uint8Array(Buffer.concat(chunks)) : undefined,
  });
}
