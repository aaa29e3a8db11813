import { createServer, type IncomingMessage, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { toHonoNodeListener } from "./hono-adapter.ts";
import { type FetchHandler, type RequestCompleted, refusedMethod, toNodeListener } from "./node-adapter.ts";
import { jsonError, writeRawAnswer } from "./raw-answer.ts";
import { requestIdFor } from "./request-id.ts";

export interface HttpServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Largest request body, in bytes. */
  bodyLimit: number;
  /** How long shutdown waits for in-flight requests before it cuts their connections. */
  shutdownGraceMs: number;
  /** Limits on slow clients; each defaults to the value below. */
  timeouts?: Partial<HttpTimeouts>;
  onComplete?: (info: RequestCompleted) => void;
  onError?: (error: unknown, requestId: string) => void;
  /** The answer to CONNECT, TRACE and TRACK, which never reach the handler (see `NodeAdapterOptions`). */
  refuseMethod?: (method: string, pathname: string) => Response;
  /**
   * What turns Node's requests into the handler's: `@hono/node-server`'s lazy request and response
   * objects ("hono") or the hand-written adapter ("socialpub"). Both keep the same behaviour; `pnpm
   * bench node-adapter` measures one against the other.
   */
  adapter?: NodeAdapterName;
  /** Serve HTTPS with this certificate (chain) and private key, both PEM; plain HTTP without. */
  tls?: TlsFiles;
}

/** A certificate, with its chain, and its private key, both PEM. */
export interface TlsFiles {
  cert: string | Buffer;
  key: string | Buffer;
}

export type NodeAdapterName = "hono" | "socialpub";
export const DEFAULT_NODE_ADAPTER: NodeAdapterName = "hono";

/** How long a client may take; a client slower than these is answered 408 and cut off. */
export interface HttpTimeouts {
  /** From the connection (or the previous request) until the request's headers are complete. */
  headersMs: number;
  /** Until the whole request, body included, has arrived. */
  requestMs: number;
  /** How long an idle keep-alive connection is kept open. */
  keepAliveMs: number;
}

/*
 * Headers must arrive within 15 s and a whole request within 30 s, which ends slow-loris clients
 * without hurting a real one (bodies are at most 1 MiB). An idle keep-alive connection is kept 5 s.
 */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  headersMs: 15_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
};

/** Node checks the header and request timeouts every this often (at most 1 s, sooner for short ones). */
function checkingIntervalFor(timeouts: HttpTimeouts): number {
  return Math.max(10, Math.min(1_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)));
}

/**
 * Node's own answers to a request its parser refused (400 malformed or cut short, 431 headers too
 * large, 413 chunk extensions too large, 408 too slow), with the JSON body every other error has
 * instead of none.
 */
function answerParserError(error: NodeJS.ErrnoException, socket: Duplex, timeouts: HttpTimeouts): void {
  socket.on("error", () => {});
  // Nothing to answer: the client is gone, or an answer to this request has already begun.
  const response = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const requestId = requestIdFor(undefined);
  let answer: Response;
  // The request's head had been parsed (Node made its response), so what ended early was the body.
  const code = error.code === "HPE_INVALID_EOF_STATE" && response === undefined ? "" : error.code;
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      answer = jsonError(431, "Request headers are too large; send fewer or shorter headers.", requestId);
      break;
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      answer = jsonError(413, "Chunk extensions are too large; send the body without them.", requestId);
      break;
    case "HPE_INVALID_EOF_STATE":
      // The client closed its side before the body it declared was complete (the service's own words).
      answer = jsonError(
        400,
        "The request body ended before it was complete; send the whole body.",
        requestId,
      );
      break;
    case "ERR_HTTP_REQUEST_TIMEOUT":
      answer = jsonError(
        408,
        `The request did not arrive in time (headers within ${timeouts.headersMs / 1000} s, the whole request within ${timeouts.requestMs / 1000} s); send it again.`,
        requestId,
      );
      break;
    default:
      answer = jsonError(
        400,
        "The request is not valid HTTP/1.1; check the request line and headers.",
        requestId,
      );
  }
  void writeRawAnswer(socket, answer);
}

export interface HttpServer {
  /** The origin the server answers on, e.g. http://127.0.0.1:8787 (https://… with TLS). */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then resolves. */
  close(): Promise<void>;
}

function originOf(address: AddressInfo, scheme: "http" | "https"): string {
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `${scheme}://${host}:${address.port}`;
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

  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.timeouts };
  const toListener =
    (options.adapter ?? DEFAULT_NODE_ADAPTER) === "hono" ? toHonoNodeListener : toNodeListener;
  const serverOptions = {
    keepAlive: true,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Node requires headersTimeout ≤ requestTimeout.
    headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: checkingIntervalFor(timeouts),
  };
  const listener = toListener(tracked, {
    bodyLimit: options.bodyLimit,
    isDraining: () => draining,
    ...(options.onComplete && { onComplete: options.onComplete }),
    ...(options.onError && { onError: options.onError }),
    ...(options.refuseMethod && { refuseMethod: options.refuseMethod }),
  });
  // node:https's server is node:http's behind TLS: the same options, events and close methods.
  const server: Server = options.tls
    ? (createHttpsServer(
        { ...serverOptions, cert: options.tls.cert, key: options.tls.key },
        listener,
      ) as Server)
    : createServer(serverOptions, listener);
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerParserError(error, socket, timeouts),
  );
  // Node hands CONNECT to this event, not to the request listener; without a listener it just closes.
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    const started = performance.now();
    const requestId = requestIdFor(req.headers["x-request-id"]);
    const target = req.url ?? "";
    const pathname = target.startsWith("/") ? new URL(target, "http://x").pathname : target;
    const response = refusedMethod("CONNECT", pathname, requestId, options.refuseMethod);
    socket.on("error", () => {});
    void writeRawAnswer(socket, response).then(() =>
      options.onComplete?.({
        requestId,
        method: "CONNECT",
        path: pathname,
        status: response.status,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      }),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const url = originOf(server.address() as AddressInfo, options.tls ? "https" : "http");

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
