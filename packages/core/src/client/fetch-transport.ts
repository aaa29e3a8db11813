import type { FetchLike, Transport } from "./transport.ts";

/**
 * Sends requests through a web-standard fetch. With `createService(…).fetch` the client runs
 * in-process, with no network at all.
 */
export function createFetchTransport(fetch: FetchLike): Transport {
  return async ({ method, url, headers, body, signal }) => {
    const controller = new AbortController();
    signal.once("abort", () => controller.abort(new Error("The attempt was cut off.")));
    const response = await fetch(new Request(url, { method, headers, body, signal: controller.signal }));
    return {
      status: response.status,
      headers: response.headers,
      header: (name) => response.headers.get(name),
      body: await response.text(),
    };
  };
}
