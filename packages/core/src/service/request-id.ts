import { newId } from "../ids.ts";

/** What an inbound X-Request-Id may look like to be echoed: short, printable, no separators to abuse. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@=+/-]{1,128}$/;

export function requestIdFor(request: Request, now: number): string {
  const inbound = request.headers.get("x-request-id");
  return inbound && SANE_REQUEST_ID.test(inbound) ? inbound : newId("req", now);
}
