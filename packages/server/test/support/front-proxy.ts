import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The address a server is reached at from outside (its SOCIALPUB_PUBLIC_URL), as a reverse proxy in
 * front of it gives one: started first, so its URL can be given to the server as its public address,
 * and pointed at the server once that listens.
 */
export class FrontProxy {
  target: URL | null = null;
  readonly url: string;
  readonly #server: Server;

  private constructor(server: Server, url: string) {
    this.#server = server;
    this.url = url;
  }

  static async start(): Promise<FrontProxy> {
    let proxy: FrontProxy | undefined;
    const server = createServer((req, res) => {
      const target = proxy!.target;
      if (!target) {
        res.writeHead(502).end();
        return;
      }
      const forward = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    proxy = new FrontProxy(server, `http://127.0.0.1:${port}`);
    return proxy;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
