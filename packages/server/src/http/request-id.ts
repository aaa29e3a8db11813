import { randomUUID } from "node:crypto";

/** An inbound id is echoed only when it is short and printable, by the same rule as the service's. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@=+/-]{1,128}$/;

/**
 * The id of a request the server answers itself (before the service sees it): the caller's
 * `X-Request-Id` when sane, else a new one.
 */
export function requestIdFor(inbound: string | string[] | undefined): string {
  const value = Array.isArray(inbound) ? inbound[0] : inbound;
  return value !== undefined && SANE_REQUEST_ID.test(value)
    ? value
    : `req_${randomUUID().replaceAll("-", "")}`;
}
