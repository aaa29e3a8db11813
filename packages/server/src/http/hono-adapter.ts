import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import { headerOf } from "@socialpub/core";
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

/**
 * The request body, read whole before the handler runs, or "too large" as soon as more than `limit`
 * bytes have arrived (then nothing more is read; the answer closes the connection). A body without
 * Content-Length cannot slip past the limit, and no handler can turn the refusal into another answer.
 * Bodies are small (1 MiB by default) and Node's request timeout bounds how long one may take.
 */
function readLimitedBody(req: IncomingMessage, limit: number): Promise<Buffer | "too large" | "gone"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: Buffer | "too large" | "gone") => {
      req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        req.pause();
        done("too large");
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    const onGone = () => done("gone");
    const onClose = () => {
      if (!req.complete) done("gone");
    };
    req.on("data", onData).on("end", onEnd).on("error", onGone).on("close", onClose);
  });
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
type Tracked = IncomingMessage & { [STATE]?: { requestId: string } };

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
      try {
        response = await handler(request);
      } catch (error) {
        options.onError?.(error, state.requestId);
        response = jsonError(500, `Internal error (request ${state.requestId}).`, state.requestId);
      }
      // The handler may have named the request otherwise: its answer's X-Request-Id is what is logged.
      // Read without building the answer's Headers: the library then writes its plain headers as they are.
      state.requestId = headerOf(response, "x-request-id") ?? state.requestId;
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
    const state = { requestId };
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
    const declared = Number(req.headers["content-length"] ?? 0);
    if (Number.isFinite(declared) && declared > bodyLimit) {
      // Refused before reading: closing the connection spares the client sending the rest.
      void writeResponse(tooLarge(bodyLimit, requestId), res, true);
      return;
    }
    if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
      void writeResponse(refusedMethod(method, path, requestId, options.refuseMethod), res, false);
      return;
    }
    // The handler names the request by the same id this layer logs it under, even when it made it up.
    setRequestId(req, requestId);
    if (BODYLESS_METHODS.has(method)) {
      void listener(req, res);
      return;
    }
    void readLimitedBody(req, bodyLimit).then((body) => {
      if (body === "too large") return writeResponse(tooLarge(bodyLimit, requestId), res, true);
      // The client went away mid-body: nobody to answer (reported as 499 when the response closes).
      if (body === "gone") {
        res.destroy();
        return;
      }
      // The library hands a body it finds here to the handler as the request's body.
      (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
      return listener(req, res);
    });
  };
}
