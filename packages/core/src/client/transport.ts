import type { EventEmitter } from "node:events";

/*
 * The one seam between the client and the network. A transport sends one request and reads the whole
 * answer; retries, timeouts and validation live above it, so every transport gets them for free.
 */

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  /**
   * Emits "abort" once when the attempt is cut off: its time ran out or the caller cancelled. undici
   * takes it as a request's signal as it is; a transport that needs an AbortSignal makes one from it.
   */
  signal: EventEmitter;
}

export interface TransportResponse {
  status: number;
  /** Every response header. A transport may build it on first read: most calls never read it. */
  readonly headers: Headers;
  /** One header's value (several joined with ", "), or null; reads it without building `headers`. */
  header(name: string): string | null;
  body: string;
}

export type Transport = ((request: TransportRequest) => Promise<TransportResponse>) & {
  /**
   * True when the transport's promise rejects as soon as the request's signal fires (undici's does).
   * Otherwise (an in-process handler may ignore the signal) each attempt races it against the signal.
   */
  readonly rejectsOnAbort?: boolean;
};

/** A web-standard fetch: the global one, or a handler such as `createService(…).fetch`. */
export type FetchLike = (request: Request) => Promise<Response>;
