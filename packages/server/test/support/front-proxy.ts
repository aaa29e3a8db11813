import type { Server } from "node:http";
import { closeProxy, forward, listenOnLoopback } from "./forward.ts";

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
    const { server, url } = await listenOnLoopback((req, res) => {
      const target = proxy!.target;
      if (!target) {
        res.writeHead(502).end();
        return;
      }
      forward(req, res, target);
    });
    proxy = new FrontProxy(server, url);
    return proxy;
  }

  close(): Promise<void> {
    return closeProxy(this.#server);
  }
}
