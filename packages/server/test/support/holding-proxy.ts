import type { Server } from "node:http";
import { closeProxy, forward, listenOnLoopback } from "./forward.ts";

/**
 * A proxy in front of a network's test peer that can hold answers: while `hold` is on, a request is
 * passed on (so the network does what it asks) but its answer is kept back, as when a connection
 * drops after sending. Tests use it to stop a server in the middle of an attempt. With `passOn` off,
 * a held request is not passed on either: it is lost on its way, and the network never sees it.
 */
export class HoldingProxy {
  hold = false;
  /** While holding, hold only the requests whose path matches this (null: every request). */
  holdOnly: RegExp | null = null;
  /** While holding, whether a held request reaches the network (false: lost on its way). */
  passOn = true;
  /** Requests held, by path. */
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
    const { server, url } = await listenOnLoopback((req, res) => {
      const holds = () => proxy!.hold && (proxy!.holdOnly === null || proxy!.holdOnly.test(req.url ?? ""));
      const keep = () => {
        proxy!.held.push(req.url ?? "");
        for (const wake of proxy!.waiters.splice(0)) wake();
      };
      if (holds() && !proxy!.passOn) {
        keep();
        req.resume(); // read, never passed on, never answered
        return;
      }
      forward(req, res, upstream, (answer) => {
        if (!holds()) return false;
        keep();
        answer.resume();
        return true; // never answered
      });
    });
    proxy = new HoldingProxy(server, url);
    return proxy;
  }

  /** Resolves once a request was passed on and its answer held. */
  async heldOne(): Promise<void> {
    if (this.held.length > 0) return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  close(): Promise<void> {
    return closeProxy(this.server);
  }
}
