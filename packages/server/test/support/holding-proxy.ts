import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A proxy in front of a network's test peer that can hold answers: while `hold` is on, a request is
 * passed on (so the network does what it asks) but its answer is kept back, as when a connection
 * drops after sending. Tests use it to stop a server in the middle of an attempt.
 */
export class HoldingProxy {
  hold = false;
  /** Requests passed on while holding, by path. */
  readonly held: string[] = [];
  private waiters: (() => void)[] = [];

  private readonly server: Server;
  readonly url: string;

  private constructor(server: Server, url: string) {
    this.server = server;
    this.url = url;
  }

  static async start(target: string): Promise<HoldingProxy> {
    const upstream = new URL(target);
    let proxy: HoldingProxy | undefined;
    const server = createServer((req, res) => {
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          if (proxy!.hold) {
            proxy!.held.push(req.url ?? "");
            for (const wake of proxy!.waiters.splice(0)) wake();
            answer.resume();
            return; // never answered
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    proxy = new HoldingProxy(server, `http://127.0.0.1:${port}`);
    return proxy;
  }

  /** Resolves once a request was passed on and its answer held. */
  async heldOne(): Promise<void> {
    if (this.held.length > 0) return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
