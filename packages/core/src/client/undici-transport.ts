import { Agent, type Dispatcher } from "undici";
import type { Transport, TransportRequest, TransportResponse } from "./transport.ts";

/**
 * The default dispatcher: keeps connections alive between requests. Idle sockets do not hold the
 * process open (undici unrefs them), so a script that forgets `client.close()` still exits.
 */
export function createKeepAliveAgent(): Agent {
  return new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 });
}

/**
 * Sends requests through undici's dispatcher API (`Dispatcher.dispatch` with a handler), the layer
 * under `undici.request`. The client always reads a whole answer as text, so the handler gathers the
 * body's chunks and decodes them once at the end: `request` would wrap the answer in a Readable stream
 * and an async resource, and take an abort signal listener per call, for a body read whole anyway —
 * measured by `pnpm bench client-overhead`, that layer was about a fifth of a call's CPU time.
 */
export function createUndiciTransport(dispatcher: Dispatcher): Transport {
  const transport = (request: TransportRequest) =>
    new Promise<TransportResponse>((resolve, reject) => {
      const handler = new WholeAnswer(resolve, reject);
      request.signal.once("abort", handler.cutOff);
      const { origin, path } = splitUrl(request.url);
      dispatcher.dispatch(
        {
          origin,
          path,
          method: request.method as Dispatcher.HttpMethod,
          headers: request.headers,
          body: request.body ?? null,
        },
        handler,
      );
    });
  // The promise rejects as soon as the attempt is cut off, answer or not.
  return Object.assign(transport, { rejectsOnAbort: true });
}

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler["onRequestStart"]>>[0];
type RawHeaders = Record<string, string | string[] | undefined>;

/** Gathers one answer, whole; settles once, with the answer or the first error. */
class WholeAnswer implements Dispatcher.DispatchHandler {
  #controller: Controller | null = null;
  #settled = false;
  #cutOffReason: Error | null = null;
  #status = 0;
  #headers: RawHeaders = {};
  readonly #chunks: Buffer[] = [];
  readonly #resolve: (response: TransportResponse) => void;
  readonly #reject: (error: unknown) => void;

  constructor(resolve: (response: TransportResponse) => void, reject: (error: unknown) => void) {
    this.#resolve = resolve;
    this.#reject = reject;
  }

  /** The attempt's time ran out or the caller cancelled: stop the request wherever it is. */
  readonly cutOff = (): void => {
    const reason = new Error("The attempt was cut off.");
    this.#cutOffReason = reason;
    this.#fail(reason);
    // Not started yet (waiting for a connection): aborted as it starts.
    this.#controller?.abort(reason);
  };

  onRequestStart(controller: Controller): void {
    this.#controller = controller;
    if (this.#cutOffReason) controller.abort(this.#cutOffReason);
  }

  onResponseStart(_controller: Controller, statusCode: number, headers: RawHeaders): void {
    // An interim answer (100 Continue, 103 Early Hints) is followed by the real one.
    if (statusCode < 200) return;
    this.#status = statusCode;
    this.#headers = headers;
  }

  onResponseData(_controller: Controller, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.#settled) return;
    this.#settled = true;
    const chunks = this.#chunks;
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    this.#resolve(new UndiciResponse(this.#status, this.#headers, decodeUtf8(bytes)));
  }

  onResponseError(_controller: Controller, error: Error): void {
    this.#fail(error);
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#reject(error);
  }
}

/** UTF-8 text without a leading byte order mark, as `response.text()` reads it in fetch and undici. */
function decodeUtf8(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * "http://host:port/api/v1/me?x=1" → origin and path. The requester builds every URL from the base
 * URL's `origin` (scheme, "://", host, no path) and a path starting with "/", so the origin ends at the
 * first "/" after the scheme's "//".
 */
function splitUrl(url: string): { origin: string; path: string } {
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  return pathStart === -1
    ? { origin: url, path: "/" }
    : { origin: url.slice(0, pathStart), path: url.slice(pathStart) };
}

/**
 * undici gives the headers as a plain object with lower-case names. A `Headers` built from it costs
 * about as much as the rest of the client's own work on a call, and most calls never read it, so it is
 * built on first read.
 */
class UndiciResponse implements TransportResponse {
  readonly status: number;
  readonly body: string;
  #raw: RawHeaders;
  #headers: Headers | undefined;

  constructor(status: number, raw: RawHeaders, body: string) {
    this.status = status;
    this.body = body;
    this.#raw = raw;
  }

  get headers(): Headers {
    this.#headers ??= toHeaders(this.#raw);
    return this.#headers;
  }

  header(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }
}

function toHeaders(raw: RawHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}
