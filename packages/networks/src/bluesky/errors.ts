// What a failure from a PDS means for the service (see NetworkError's kinds in @socialpub/core).
// XRPC errors carry the HTTP status, an error name and a message; rate limits carry ratelimit-*
// headers (ratelimit-reset is a Unix time in seconds).

import { XRPCError } from "@atproto/api";
import { NetworkError } from "@socialpub/core";

const NETWORK = "bluesky";

/** Error names the PDS uses for an access token it no longer takes: refresh the session and try again. */
export const EXPIRED_TOKEN_ERRORS = new Set(["ExpiredToken", "InvalidToken"]);

/** Error names that mean the account itself can no longer post (the grant is gone). */
const ACCOUNT_GONE_ERRORS = new Set([
  "AccountTakedown",
  "AccountDeactivated",
  "AccountNotFound",
  "RepoTakendown",
  "RepoDeactivated",
  "RepoSuspended",
]);

/** Connection errors raised before any byte of the request reached the PDS: safe to send again. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

export function xrpcStatus(error: unknown): number | undefined {
  return error instanceof XRPCError && error.status >= 100 ? error.status : undefined;
}

export function xrpcErrorName(error: unknown): string | undefined {
  return error instanceof XRPCError ? error.error : undefined;
}

/** The network's hint of when to try again, from ratelimit-reset or retry-after. */
export function retryAfterMsOf(
  headers: Record<string, string | undefined> | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const reset = Number(lower["ratelimit-reset"]);
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
  const retryAfter = Number(lower["retry-after"]);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  return undefined;
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** True when the failure happened before the request could have reached the PDS. */
function neverSent(error: unknown): boolean {
  return causeChain(error).some((link) => NOT_SENT_CODES.has((link as { code?: string }).code ?? ""));
}

/**
 * Why the PDS could not be reached, from the connection error in the failure's causes: its host does
 * not resolve, it refused the connection, it is unreachable. A host name or address is no secret.
 */
function unreachableReason(error: unknown): string {
  const link = causeChain(error).find((l) => NOT_SENT_CODES.has((l as { code?: string }).code ?? "")) as {
    code: string;
    hostname?: unknown;
    address?: unknown;
    port?: unknown;
  };
  const name = typeof link.hostname === "string" ? link.hostname : undefined;
  const address =
    typeof link.address === "string"
      ? `${link.address.includes(":") ? `[${link.address}]` : link.address}${typeof link.port === "number" ? `:${link.port}` : ""}`
      : undefined;
  const host = name ?? address;
  switch (link.code) {
    case "ENOTFOUND":
      return host ? `host ${host} does not resolve` : "its host does not resolve";
    case "EAI_AGAIN":
      return `${host ? `host ${host}` : "its host"} could not be resolved now (DNS did not answer)`;
    case "ECONNREFUSED":
      return `${host ?? "it"} refused the connection`;
    default:
      return `${host ?? "its host"} is unreachable (${link.code})`;
  }
}

function isTimeout(error: unknown): boolean {
  return causeChain(error).some((link) => {
    const name = (link as { name?: string }).name;
    return name === "TimeoutError" || name === "AbortError";
  });
}

function reasonOf(error: XRPCError): string {
  const message = error.message && error.message !== error.error ? error.message : "";
  return [error.error, message].filter(Boolean).join(": ") || `HTTP ${error.status}`;
}

/**
 * Classifies a failure of one request to the PDS. `what` names the action ("publishing",
 * "logging in") for the message; `sentWrite` says the request was a write whose effect cannot be
 * undone, so losing its answer leaves the outcome unknown instead of retryable.
 */
export function classify(error: unknown, what: string, sentWrite = false): NetworkError {
  if (error instanceof NetworkError) return error;
  const status = xrpcStatus(error);
  if (error instanceof XRPCError && status !== undefined) {
    const reason = reasonOf(error);
    const details = { status, cause: error };
    if (status === 429) {
      return new NetworkError(NETWORK, "retry", `Bluesky is rate limiting ${what}: ${reason}`, {
        ...details,
        retryAfterMs: retryAfterMsOf(error.headers),
      });
    }
    if (status >= 500) {
      return new NetworkError(NETWORK, "retry", `Bluesky failed while ${what} (HTTP ${status}): ${reason}`, {
        ...details,
        retryAfterMs: retryAfterMsOf(error.headers),
      });
    }
    if (status === 401 || status === 403 || ACCOUNT_GONE_ERRORS.has(error.error)) {
      return new NetworkError(
        NETWORK,
        "reauth",
        `Bluesky no longer accepts this account's app password (${reason}): connect the account again with a new app password`,
        details,
      );
    }
    return new NetworkError(NETWORK, "refused", `Bluesky refused ${what}: ${reason}`, details);
  }
  if (neverSent(error)) {
    return new NetworkError(
      NETWORK,
      "retry",
      `Bluesky could not be reached while ${what}: ${unreachableReason(error)}`,
      { cause: error },
    );
  }
  if (sentWrite) {
    return new NetworkError(
      NETWORK,
      "unknown",
      `Bluesky did not answer while ${what}${isTimeout(error) ? " (timed out)" : ""}: the post may have been made`,
      { cause: error },
    );
  }
  return new NetworkError(
    NETWORK,
    "retry",
    `Bluesky did not answer while ${what}${isTimeout(error) ? " (timed out)" : ""}`,
    { cause: error },
  );
}
