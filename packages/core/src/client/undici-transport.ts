import { Agent, type Dispatcher, request } from "undici";
import type { Transport, TransportResponse } from "./transport.ts";

/**
 * The default dispatcher: keeps connections alive between requests. Idle sockets do not hold the
 * process open (undici unrefs them), so a script that forgets `client.close()` still exits.
 */
export function createKeepAliveAgent(): Agent {
  return new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 });
}

/** Sends requests with undici's `request`, which is leaner than fetch for a JSON API. */
export function createUndiciTransport(dispatcher: Dispatcher): Transport {
  const transport = async ({ method, url, headers, body, signal }: Parameters<Transport>[0]) => {
    const response = await request(url, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      signal,
      dispatcher,
    });
    const text = await response.body.text();
    return new UndiciResponse(response.statusCode, response.headers, text);
  };
  // undici ends the request, body included, and rejects as soon as the signal fires.
  return Object.assign(transport, { rejectsOnAbort: true });
}

type RawHeaders = Record<string, string | string[] | undefined>;

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
