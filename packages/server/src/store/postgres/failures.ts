import { StoreUnavailableError } from "@socialpub/core";

/*
 * Which database failures mean "not now" rather than "wrong". A lost connection, a server shutting
 * down or starting up, a full connection table and a statement that ran past its timeout all pass: the
 * same request can succeed a moment later, so the service answers 503 with Retry-After instead of 500.
 */

/** SQLSTATEs (and their classes) of a database that is unreachable, restarting or overloaded. */
const UNAVAILABLE_STATES = new Set([
  "57P01", // admin_shutdown: the server is stopping
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: the server is starting or in recovery
  "57014", // query_canceled: statement_timeout ran out
  "53300", // too_many_connections
  "25P03", // idle_in_transaction_session_timeout
  "40P01", // deadlock_detected, once its retries are spent
  "55P03", // lock_not_available
]);

/** Errors of the connection itself: Node's socket errors and the driver's own. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "QUERY_DEADLINE", // no answer within the store's deadline (deadline.ts)
]);

function codeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** A failure worth running the whole transaction again for: it lost a deadlock or a serialization race. */
export function isRetryable(error: unknown): boolean {
  const code = codeOf(error);
  return code === "40P01" || code === "40001";
}

function isUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (code === undefined) return false;
  return UNAVAILABLE_STATES.has(code) || code.startsWith("08") || CONNECTION_CODES.has(code);
}

/**
 * `error` as the service should see it: a StoreUnavailableError, naming the database (no password) and
 * the cause, when the database cannot be reached now; otherwise unchanged.
 */
export function unavailableIfConnectionLost(error: unknown, where: string): unknown {
  if (error instanceof StoreUnavailableError || !isUnavailable(error)) return error;
  const reason = error instanceof Error && error.message ? error.message : codeOf(error);
  return new StoreUnavailableError(`PostgreSQL at ${where} is unavailable: ${reason}`, { cause: error });
}
