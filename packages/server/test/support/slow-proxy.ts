import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { closeProxy, forward, listenOnLoopback } from "./forward.ts";

/**
 * A proxy in front of a network's test peer that makes it slow: while `slow` is on, a request whose
 * path matches `only` is passed on (the network does what it asks) but its answer waits until
 * `answerAll()` is called, as from a network taking its time. Unlike HoldingProxy's, the answers are
 * not lost: the instance that asked gets them, late.
 */
export class SlowProxy {
  slow = false;
  /** Only requests whose path matches this are slowed (null: every request). */
  only: RegExp | null = null;
  /** How many requests were slowed so far. */
  slowed = 0;
  private readonly waiting: (() => void)[] = [];

  private readonly server: Server;
  readonly url: string;

  private constructor(server: Server, url: string) {
    this.server = server;
    this.url = url;
  }

  static async start(target: string): Promise<SlowProxy> {
    const upstream = new URL(target);
    let proxy: SlowProxy | undefined;
    const { server, url } = await listenOnLoopback((req, res) =>
      forward(req, res, upstream, (answer) => proxy!.keep(req, res, answer)),
    );
    proxy = new SlowProxy(server, url);
    return proxy;
  }

  /** Sends every answer kept back so far. */
  answerAll(): void {
    for (const send of this.waiting.splice(0)) send();
  }

  close(): Promise<void> {
    return closeProxy(this.server);
  }

  private keep(req: IncomingMessage, res: ServerResponse, answer: IncomingMessage): boolean {
    if (!this.slow || (this.only !== null && !this.only.test(req.url ?? ""))) return false;
    this.slowed++;
    // The answer's body stays in the socket's buffer (a few hundred bytes) until it is sent.
    this.waiting.push(() => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    return true;
  }
}
