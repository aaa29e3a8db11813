import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the request arrived. */
  at: number;
  /** The client's port: the same port means the same (kept-alive) connection. */
  remotePort: number | undefined;
}

/** What to do with one request: answer, or misbehave the way real networks do. */
export type Step =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { drop: true }
  | { hang: true | "after-headers" };

/**
 * A real HTTP server on 127.0.0.1, port 0, that answers from a script: each request takes the next
 * step (the last one repeats), and every request is recorded. The service is not involved: this is the
 * peer that fails on purpose.
 */
export class ScriptedServer {
  readonly seen: SeenRequest[] = [];
  baseUrl = "";
  #steps: Step[] = [];
  #server: Server;
  #hanging: ServerResponse[] = [];

  constructor() {
    this.#server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      this.seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: performance.now(),
        remotePort: req.socket.remotePort,
      });
      const step = this.#steps.length > 1 ? this.#steps.shift() : this.#steps[0];
      if (!step) throw new Error("ScriptedServer: no step scripted");
      if ("drop" in step) {
        req.socket.destroy();
        return;
      }
      if ("hang" in step) {
        // "after-headers": the status line, headers and part of a body, then nothing.
        if (step.hang === "after-headers") {
          res.writeHead(200, { "content-type": "application/json" });
          res.write('{"id":');
        }
        this.#hanging.push(res);
        return;
      }
      const body =
        step.body === undefined ? "" : typeof step.body === "string" ? step.body : JSON.stringify(step.body);
      res.writeHead(step.status, {
        "content-type": typeof step.body === "string" ? "text/plain" : "application/json",
        "x-request-id": `req_${this.seen.length}`,
        ...step.headers,
      });
      res.end(body);
    });
  }

  /** Replaces the script. */
  script(...steps: Step[]): this {
    this.#steps = steps;
    this.seen.length = 0;
    return this;
  }

  async start(): Promise<this> {
    this.#server.listen(0, "127.0.0.1");
    await once(this.#server, "listening");
    const { port } = this.#server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}/api/v1`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, "close");
  }

  /** Every Idempotency-Key the server received, in order. */
  idempotencyKeys(): (string | undefined)[] {
    return this.seen.map((request) => request.headers["idempotency-key"] as string | undefined);
  }
}
