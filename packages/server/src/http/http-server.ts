import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type FetchHandler, type RequestCompleted, toNodeListener } from "./node-adapter.ts";

export interface HttpServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Largest request body, in bytes. */
  bodyLimit: number;
  /** How long shutdown waits for in-flight requests before it cuts their connections. */
  shutdownGraceMs: number;
  onComplete?: (info: RequestCompleted) => void;
  onError?: (error: unknown, requestId: string) => void;
}

/*
 * Timeouts. Headers must arrive within 15 s and a whole request within 30 s, which ends slow-loris
 * clients without hurting a real one (bodies are at most 1 MiB). An idle keep-alive connection is kept
 * 5 s. Node checks these every `connectionsCheckingInterval`.
 */
const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

export interface HttpServer {
  /** The origin the server answers on, e.g. http://127.0.0.1:8787. */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then resolves. */
  close(): Promise<void>;
}

function originOf(address: AddressInfo): string {
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Serves a fetch handler over node:http with keep-alive, timeouts, a body limit and a graceful close. */
export async function listen(handler: FetchHandler, options: HttpServerOptions): Promise<HttpServer> {
  let draining = false;
  const inFlight = new Set<Promise<Response>>();
  const tracked: FetchHandler = (request) => {
    const pending = handler(request);
    inFlight.add(pending);
    const forget = () => inFlight.delete(pending);
    pending.then(forget, forget);
    return pending;
  };

  const server = createServer(
    {
      keepAlive: true,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    toNodeListener(tracked, {
      bodyLimit: options.bodyLimit,
      isDraining: () => draining,
      ...(options.onComplete && { onComplete: options.onComplete }),
      ...(options.onError && { onError: options.onError }),
    }),
  );

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const url = originOf(server.address() as AddressInfo);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive connections go now; busy ones close after their response (Connection: close).
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs);
      await closed;
      clearTimeout(force);
      // A handler whose client was cut off may still be working: let it finish its store writes.
      await Promise.allSettled([...inFlight]);
    })();
    return closing;
  };

  return { url, server, close };
}
