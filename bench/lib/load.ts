import autocannon from "autocannon";
import { round } from "./result.ts";

/** One request autocannon sends; `setupRequest` may change it each time (a fresh Idempotency-Key). */
export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: autocannon.Request) => autocannon.Request;
}

export interface LoadOptions {
  /** Origin, e.g. http://127.0.0.1:40123. Only loopback addresses are accepted. */
  url: string;
  connections: number;
  seconds: number;
  /** The request each connection sends, by connection index (so each can act as its own user). */
  request: (connection: number) => LoadRequest;
}

export interface LoadResult {
  /** Answered requests (all 2xx, or the run throws) per second of the run. */
  requests_per_s: number;
  requests: number;
  seconds: number;
  /** Latency percentiles in milliseconds. */
  latency_ms: { p50: number; p90: number; p99: number; max: number };
}

const LOOPBACK = /^http:\/\/(127\.\d+\.\d+\.\d+|\[::1\]|localhost)(:\d+)?$/;

/**
 * Puts `connections` keep-alive connections under load for `seconds` and reports throughput and
 * latency. Any answer other than 2xx, or any socket error, fails the run: a figure counted on errors
 * would measure the error path.
 */
export async function load(options: LoadOptions): Promise<LoadResult> {
  if (!LOOPBACK.test(options.url)) throw new Error(`load goes to loopback only, not ${options.url}`);
  let next = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    setupClient: (client) => {
      const { method, path, headers = {}, body, setupRequest } = options.request(next++);
      client.setRequests([
        {
          method,
          path,
          headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
          ...(body !== undefined && { body }),
          ...(setupRequest && { setupRequest }),
        },
      ]);
    },
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) {
    throw new Error(
      `${failures} of ${result.requests.sent} requests failed (${result.non2xx} not 2xx, ${result.errors} errors, ` +
        `${result.timeouts} timeouts); status counts: ${JSON.stringify(statusCounts(result))}`,
    );
  }
  const answered = result["2xx"];
  return {
    requests_per_s: round(answered / result.duration, 0),
    requests: answered,
    seconds: round(result.duration, 2),
    latency_ms: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
  };
}

function statusCounts(result: autocannon.Result): Record<string, number> {
  return Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0]),
  );
}
