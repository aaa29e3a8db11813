import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What the test proxies share: passing a request on to a server as it came (method, path, headers,
 * body; Host rewritten to the target's) and its answer back, on a server listening on loopback.
 */

/**
 * Passes `req` on to `target` and its answer back to `res`, unless `keep` takes the answer (returns
 * true): then nothing is sent back. A target that cannot be reached drops the connection.
 */
export function forward(
  req: IncomingMessage,
  res: ServerResponse,
  target: URL,
  keep: (answer: IncomingMessage) => boolean = () => false,
): void {
  const passed = httpRequest(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: target.host },
    },
    (answer) => {
      if (keep(answer)) return;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  passed.on("error", () => res.destroy());
  req.pipe(passed);
}

/** A proxy's server on a free loopback port, and its URL. */
export async function listenOnLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

/** Closes a proxy's server, ending the connections it still holds. */
export function closeProxy(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
