import type { Transport, TransportRequest, TransportResponse } from "./transport.ts";

/** How one attempt ended when no answer came. */
export type AttemptFailure =
  | { kind: "timeout"; cause: unknown }
  | { kind: "connection"; cause: unknown; reason: string };

export type AttemptResult = { kind: "response"; response: TransportResponse } | AttemptFailure;

class AttemptTimedOut extends Error {}

/**
 * Sends one request, bounded by `timeoutMs` even when the transport ignores its signal (an in-process
 * handler does). When the caller's signal aborts, rejects with its reason; every other failure is
 * returned as data so the caller can decide whether to retry.
 */
export async function sendAttempt(
  transport: Transport,
  request: Omit<TransportRequest, "signal">,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Promise<AttemptResult> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new AttemptTimedOut()), timeoutMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout.signal]) : timeout.signal;
  try {
    const pending = transport({ ...request, signal });
    // A transport that rejects on abort needs no race: listening to the signal here too costs a
    // listener per attempt for nothing.
    const response = await (transport.rejectsOnAbort
      ? pending
      : Promise.race([pending, rejectOnAbort(signal, pending)]));
    return { kind: "response", response };
  } catch (error) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timeout.signal.aborted || isUndiciTimeout(error)) return { kind: "timeout", cause: error };
    return { kind: "connection", cause: error, reason: describeCause(error) };
  } finally {
    clearTimeout(timer);
  }
}

function rejectOnAbort(signal: AbortSignal, pending: Promise<unknown>): Promise<never> {
  return new Promise((_, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    // Drop the listener once the attempt settles, so a long-lived caller signal does not collect them.
    const done = () => signal.removeEventListener("abort", onAbort);
    pending.then(done, done);
  });
}

// undici's own limits on waiting for headers or body are timeouts too, not connection failures.
function isUndiciTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT";
}

/** "ECONNREFUSED connect ECONNREFUSED 127.0.0.1:1" → the code and message of the innermost cause. */
function describeCause(error: unknown): string {
  const inner = (error as { cause?: unknown } | null)?.cause ?? error;
  const code = (inner as { code?: unknown } | null)?.code;
  const message = inner instanceof Error ? inner.message : String(inner);
  return typeof code === "string" && !message.includes(code) ? `${code} ${message}` : message;
}
