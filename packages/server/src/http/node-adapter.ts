import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { bodyTextOf, headerOf, withHeaders } from "@socialpub/core";
import { lingerOnClose, watchBody } from "./body-limit.ts";
import { limitedBodyStream } from "./body-stream.ts";
import { jsonError } from "./raw-answer.ts";
import { requestIdFor } from "./request-id.ts";

/** The service as the platform sees it: a web-standard handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

export interface RequestCompleted {
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

export interface NodeAdapterOptions {
  /** Largest request body accepted, in bytes; larger ones get 413. */
  bodyLimit: number;
  /** Called once per request when its response has been written (or the client went away). */
  onComplete?: (info: RequestCompleted) => void;
  /** Called when the handler throws: a defect, answered with 500. */
  onError?: (error: unknown, requestId: string) => void;
  /** True once the server is shutting down: responses then close their connection. */
  isDraining?: () => boolean;
  /**
   * The answer to a method a `Request` cannot carry (CONNECT, TRACE, TRACK), so it never reaches the
   * handler: the service's own refusal (405 with Allow on its paths); a plain 501 without one.
   */
  refuseMethod?: (method: string, pathname: string) => Response;
}

/** Methods the Fetch standard forbids: `new Request` throws on them, so the handler never sees them. */
export const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** The answer to a method the handler cannot be asked about (see `NodeAdapterOptions.refuseMethod`). */
export function refusedMethod(
  method: string,
  pathname: string,
  requestId: string,
  refuse: NodeAdapterOptions["refuseMethod"],
): Response {
  const response =
    refuse?.(method, pathname) ?? jsonError(501, `Method ${method} is not implemented.`, requestId);
  return withHeaders(response, { "x-request-id": requestId });
}

const BODYLESS_METHODS = new Set(["GET", "HEAD"]);

/** Worded as the service words its own 413, so a client sees one message whichever layer refused. */
export function tooLarge(limit: number, requestId: string): Response {
  const size = limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MiB` : `${limit} bytes`;
  return jsonError(413, `Request body is larger than ${size}; send less.`, requestId, {
    connection: "close",
  });
}

function headersOf(message: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    // HTTP/2 pseudo-headers never reach a Request.
    if (!raw[i]!.startsWith(":")) headers.append(raw[i]!, raw[i + 1]!);
  }
  return headers;
}

/** The URL the client asked for; a Host header that does not parse falls back to the server's own. */
function urlOf(message: IncomingMessage, fallbackHost: string): URL {
  const path = message.url ?? "/";
  // Served over TLS (node:https), the request came in as https.
  const scheme = (message.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  try {
    return new URL(path, `${scheme}://${message.headers.host ?? fallbackHost}`);
  } catch {
    return new URL(path.startsWith("/") ? path : "/", `${scheme}://${fallbackHost}`);
  }
}

/** Bodies that end within this many bytes are sent whole, with Content-Length; longer ones stream. */
const BUFFERED_BODY_BYTES = 64 * 1024;

/** Reads the body until it ends or passes `limit`: the chunks read, and whether it ended. */
async function readHead(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size <= limit) {
    const { done, value } = await reader.read();
    if (done) return { chunks, ended: true };
    chunks.push(value);
    size += value.byteLength;
  }
  return { chunks, ended: false };
}

export async function writeResponse(response: Response, res: ServerResponse, closeConnection: boolean) {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  if (closeConnection) headers.connection = "close";
  const status = response.statusText || undefined;
  const text = bodyTextOf(response);
  if (text !== undefined) {
    // A body the service built from a string goes out as that string, without reading its stream.
    if (headers["content-length"] === undefined) headers["content-length"] = String(Buffer.byteLength(text));
    res.writeHead(response.status, status, headers);
    res.end(text);
    return;
  }
  if (response.body === null) {
    res.writeHead(response.status, status, headers);
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const head = await readHead(reader, BUFFERED_BODY_BYTES);
  if (head.ended) {
    // The usual JSON answer: one write with its length, no chunked encoding.
    const body = Buffer.concat(head.chunks);
    if (headers["content-length"] === undefined) headers["content-length"] = String(body.byteLength);
    res.writeHead(response.status, status, headers);
    res.end(body);
    return;
  }
  res.writeHead(response.status, status, headers);
  // The rest streams; pipeline waits for 'drain' whenever the socket is full, and stops reading the
  // body if the client goes away.
  async function* rest() {
    yield* head.chunks;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  }
  try {
    await pipeline(Readable.from(rest(), { objectMode: false }), res);
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * A Node `request` listener that serves a fetch handler: IncomingMessage → Request (body streamed, limit
 * enforced while reading, aborted when the client disconnects) → Response written back with
 * backpressure.
 */
export function toNodeListener(handler: FetchHandler, options: NodeAdapterOptions) {
  const { bodyLimit } = options;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const url = urlOf(req, `${req.socket.localAddress ?? "127.0.0.1"}:${req.socket.localPort ?? 80}`);
    const method = req.method ?? "GET";
    let requestId = requestIdFor(req.headers["x-request-id"]);
    let reported = false;
    const report = (status: number) => {
      if (reported) return;
      reported = true;
      options.onComplete?.({
        requestId,
        method,
        path: url.pathname,
        status,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      });
    };
    const aborter = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) aborter.abort(new Error("The client closed the connection."));
      report(res.writableFinished ? res.statusCode : 499);
    });

    const serve = async (): Promise<void> => {
      if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
        await writeResponse(refusedMethod(method, url.pathname, requestId, options.refuseMethod), res, false);
        return;
      }
      const hasBody = !BODYLESS_METHODS.has(method);
      const declared = Number(req.headers["content-length"] ?? 0);
      // Counted as it arrives; read only when the handler asks for it (after it has checked the key).
      const watch = hasBody
        ? watchBody(req, bodyLimit, Number.isFinite(declared) && declared > bodyLimit)
        : null;
      let overflowed = false;
      const headers = headersOf(req);
      // The handler names the request by the same id this layer logs it under, even when it made it up.
      headers.set("x-request-id", requestId);
      const request = new Request(url, {
        method,
        headers,
        body: hasBody
          ? limitedBodyStream(req, bodyLimit, () => {
              overflowed = true;
            })
          : null,
        signal: aborter.signal,
        ...(hasBody && { duplex: "half" }),
      } as RequestInit);
      let response: Response;
      try {
        response = await handler(request);
      } catch (error) {
        if (overflowed || watch?.overflowed) {
          response = tooLarge(bodyLimit, requestId);
        } else {
          options.onError?.(error, requestId);
          response = jsonError(500, `Internal error (request ${requestId}).`, requestId);
        }
      }
      overflowed ||= watch?.overflowed ?? false;
      // However the handler answered a body it could not read whole, the cause is the size.
      if (overflowed) {
        await response.body?.cancel();
        response = tooLarge(bodyLimit, requestId);
      }
      requestId = headerOf(response, "x-request-id") ?? requestId;
      // The rest of a body too large is not wanted: the connection closes once the client has sent it.
      if (watch?.tooLarge) lingerOnClose(req.socket);
      // Asked at write time: a request that started before shutdown still ends its connection.
      await writeResponse(response, res, (watch?.tooLarge ?? false) || (options.isDraining?.() ?? false));
    };

    serve().catch((error: unknown) => {
      // Writing failed: the client went away mid-response, or the response body errored.
      if (!res.headersSent) {
        options.onError?.(error, requestId);
        res.writeHead(500, { "content-type": "application/json; charset=utf-8", "x-request-id": requestId });
        res.end(JSON.stringify({ error: `Internal error (request ${requestId}).` }));
      } else {
        res.destroy();
      }
    });
  };
}
