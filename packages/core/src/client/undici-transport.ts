import { Agent, type Dispatcher, request } from "undici";
import type { Transport } from "./transport.ts";

/**
 * The default dispatcher: keeps connections alive between requests. Idle sockets do not hold the
 * process open (undici unrefs them), so a script that forgets `client.close()` still exits.
 */
export function createKeepAliveAgent(): Agent {
  return new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 });
}

/** Sends requests with undici's `request`, which is leaner than fetch for a JSON API. */
export function createUndiciTransport(dispatcher: Dispatcher): Transport {
  return async ({ method, url, headers, body, signal }) => {
    const response = await request(url, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      signal,
      dispatcher,
    });
    const text = await response.body.text();
    return { status: response.statusCode, headers: toHeaders(response.headers), body: text };
  };
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}
