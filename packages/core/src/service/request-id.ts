import { newId } from "../ids.ts";

/** What an inbound X-Request-Id may look like to be echoed: short, printable, no separators to abuse. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@=+/-]{1,128}$/;

/**
 * The id of a request given the value of its X-Request-Id header: that value when it is sane, else a
 * new `req_` + ULID. The one rule for every layer that answers requests (the service, and the server's
 * HTTP adapter for the answers it gives before the service sees a request).
 */
export function requestIdFromHeader(inbound: string | null | undefined, now: number): string {
  return inbound && SANE_REQUEST_ID.test(inbound) ? inbound : newId("req", now);
}

export function requestIdFor(request: Request, now: number): string {
  return requestIdFromHeader(request.headers.get("x-request-id"), now);
}
