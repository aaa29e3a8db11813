import { requestIdFromHeader } from "@socialpub/core";

/**
 * The id of a request the server answers itself (before the service sees it), by the service's own
 * rule: the caller's `X-Request-Id` when sane, else a new `req_` + ULID. Node gives a repeated header
 * as an array; the first value counts.
 */
export function requestIdFor(inbound: string | string[] | undefined): string {
  return requestIdFromHeader(Array.isArray(inbound) ? inbound[0] : inbound, Date.now());
}
