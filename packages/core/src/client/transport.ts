/*
 * The one seam between the client and the network. A transport sends one request and reads the whole
 * answer; retries, timeouts and validation live above it, so every transport gets them for free.
 */

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  headers: Headers;
  body: string;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** A web-standard fetch: the global one, or a handler such as `createService(…).fetch`. */
export type FetchLike = (request: Request) => Promise<Response>;
