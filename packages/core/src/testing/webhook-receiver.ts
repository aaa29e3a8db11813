import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the receiver got, as it came off the socket. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent (what a signature covers). */
  body: string;
}

/**
 * How the receiver answers a request: a status (with headers and a body), `"hang"` to never answer
 * (until the receiver closes), or `"drop"` to cut the connection without an answer.
 */
export type ReceiverAnswer =
  | { status: number; headers?: Record<string, string>; body?: string }
  | "hang"
  | "drop";

export type Respond = (request: ReceivedRequest, index: number) => ReceiverAnswer | Promise<ReceiverAnswer>;

/**
 * A webhook endpoint for tests: a real HTTP server on 127.0.0.1 (port 0 unless told) that records
 * every request and answers as `respond` says (200 by default). It can go down (connections refused)
 * and come back on the same port, as a receiver being redeployed does.
 */
export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  respond: Respond;
  private server: Server | null = null;
  private port = 0;
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(respond: Respond) {
    this.respond = respond;
  }

  static async start(respond: Respond = () => ({ status: 200 })): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(respond);
    await receiver.up();
    return receiver;
  }

  /** The URL to register, e.g. http://127.0.0.1:40123/hooks. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Stops listening: from now on connections to its port are refused. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Listens again, on the same port once it has one. */
  async up(): Promise<void> {
    if (this.server) return;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", async () => {
        const request: ReceivedRequest = {
          method: req.method ?? "",
          path: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        };
        const index = this.received.push(request) - 1;
        for (const waiter of this.waiters) if (waiter.count <= this.received.length) waiter.resolve();
        this.waiters = this.waiters.filter((w) => w.count > this.received.length);
        let answer: ReceiverAnswer;
        try {
          answer = await this.respond(request, index);
        } catch {
          answer = { status: 500 };
        }
        if (answer === "hang") return;
        if (answer === "drop") {
          req.socket.destroy();
          return;
        }
        res.writeHead(answer.status, answer.headers).end(answer.body ?? "");
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops for good (requests left hanging are cut). */
  close(): Promise<void> {
    return this.down();
  }
}
