import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import { headerOf } from "@socialpub/core";
import { type BodyWatch, lingerOnClose, watchBody } from "./body-limit.ts";
import {
  type FetchHandler,
  FORBIDDEN_METHODS,
  type NodeAdapterOptions,
  refusedMethod,
  tooLarge,
  writeResponse,
} from "./node-adapter.ts";
import { jsonError } from "./raw-answer.ts";
import { requestIdFor } from "./request-id.ts";

/** A path that needs no normalising to be its own pathname (what `new URL` would give back). */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/** The pathname a request line names, as `new URL` would give it, without parsing a URL when plain. */
function pathnameOf(target: string): string {
  const query = target.indexOf("?");
  const path = query === -1 ? target : target.slice(0, query);
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) return path;
  try {
    return new URL(target.startsWith("/") ? target : "/", "http://x").pathname;
  } catch {
    return "/";
  }
}

const BODYLESS_METHODS = new Set(["GET", "HEAD"]);

/** The address a connection reached, as a Host header would name it. */
function hostOf(socket: Socket): string {
  const address = socket.localAddress ?? "127.0.0.1";
  return `${address.includes(":") ? `[${address}]` : address}:${socket.localPort ?? 80}`;
}

/** Replaces the request's X-Request-Id, in both forms Node keeps headers in, with `requestId`. */
function setRequestId(req: IncomingMessage, requestId: string): void {
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.length === 12 && raw[i]!.toLowerCase() === "x-request-id") raw.splice(i, 2);
  }
  raw.push("x-request-id", requestId);
  req.headers["x-request-id"] = requestId;
}

const STATE = Symbol("request state");
/** What the outer listener and the fetch callback share about one request. */
type Tracked = IncomingMessage & { [STATE]?: { requestId: string; body: BodyWatch | null } };

/**
 * The same contract as `toNodeListener` (body limit, refused methods, request ids, completion report
 * with 499 for a client that left, Connection: close while draining, JSON 500 for a defect), with the
 * request and response objects of `@hono/node-server`: a `Request` whose headers, URL and body are read
 * from the IncomingMessage only when the handler asks for them, and a `Response` built from a string
 * that is written to the socket as that string.
 */
export function toHonoNodeListener(handler: FetchHandler, options: NodeAdapterOptions) {
  const { bodyLimit } = options;
  // Every answer of the service goes through the handler below; errors are answered there.
  const listener = getRequestListener(
    async (request: Request, env: HttpBindings | object) => {
      // Served only by createServer of node:http, so the bindings are always HTTP/1's.
      const { incoming, outgoing } = env as HttpBindings;
      const state = (incoming as Tracked)[STATE]!;
      let response: Response;
      const body = state.body;
      try {
        response = await handler(request);
      } catch (error) {
        if (body?.overflowed) {
          response = tooLarge(bodyLimit, state.requestId);
        } else {
          options.onError?.(error, state.requestId);
          response = jsonError(500, `Internal error (request ${state.requestId}).`, state.requestId);
        }
      }
      // However the handler answered a body it could not read whole, the cause is the size.
      if (body?.overflowed) {
        await response.body?.cancel();
        response = tooLarge(bodyLimit, state.requestId);
      }
      // The handler may have named the request otherwise: its answer's X-Request-Id is what is logged.
      // Read without building the answer's Headers: the library then writes its plain headers as they are.
      state.requestId = headerOf(response, "x-request-id") ?? state.requestId;
      if (body?.tooLarge) {
        // The rest of the body is not wanted: the connection closes once the client has sent it.
        lingerOnClose(incoming.socket as Socket);
        outgoing.setHeader("connection", "close");
      }
      // Asked at write time: a request that started before shutdown still ends its connection.
      if (options.isDraining?.()) outgoing.setHeader("connection", "close");
      return response;
    },
    {
      // A request line or Host header the library cannot make a URL of: the service's 400 shape.
      errorHandler: () =>
        jsonError(400, "The request's URL or Host header is not valid.", requestIdFor(undefined)),
    },
  );
  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const method = req.method ?? "GET";
    const path = pathnameOf(req.url ?? "/");
    const requestId = requestIdFor(req.headers["x-request-id"]);
    const state: { requestId: string; body: BodyWatch | null } = { requestId, body: null };
    (req as Tracked)[STATE] = state;
    res.once("close", () => {
      options.onComplete?.({
        requestId: state.requestId,
        method,
        path,
        status: res.writableFinished ? res.statusCode : 499,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      });
    });
    if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
      void writeResponse(refusedMethod(method, path, requestId, options.refuseMethod), res, false);
      return;
    }
    // The handler names the request by the same id this layer logs it under, even when it made it up.
    setRequestId(req, requestId);
    // HTTP/1.0 does not require Host: such a request names this server by the address it reached.
    if (req.headers.host === undefined) req.headers.host = hostOf(req.socket);
    if (!BODYLESS_METHODS.has(method)) {
      // The body is read when the handler asks for it (after it has checked the key), not before.
      const declared = Number(req.headers["content-length"] ?? 0);
      state.body = watchBody(req, bodyLimit, Number.isFinite(declared) && declared > bodyLimit);
    }
    void listener(req, res);
  };
}
