import type { EventEmitter } from "node:events";
import type { AttemptDeadlines } from "./attempt-cutoff.ts";
import type { Transport, TransportRequest, TransportResponse } from "./transport.ts";

/** How one attempt ended when no answer came. */
export type AttemptFailure =
  | { kind: "timeout"; cause: unknown }
  | { kind: "connection"; cause: unknown; reason: string };

export type AttemptResult = { kind: "response"; response: TransportResponse } | AttemptFailure;

class AttemptCutOff extends Error {}

/**
 * Sends one request, bounded by `timeoutMs` even when the transport ignores its signal (an in-process
 * handler does). When the caller's signal aborts, rejects with its reason; every other failure is
 * returned as data so the caller can decide whether to retry.
 */
export async function sendAttempt(
  transport: Transport,
  request: Omit<TransportRequest, "signal">,
  deadlines: AttemptDeadlines,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Promise<AttemptResult> {
  const cutoff = deadlines.start(timeoutMs, callerSignal);
  try {
    const pending = transport({ ...request, signal: cutoff.signal });
    // A transport that rejects once the signal fires needs no race: listening to it here too costs a
    // listener per attempt for nothing.
    const response = await (transport.rejectsOnAbort
      ? pending
      : Promise.race([pending, rejectOnCutoff(cutoff.signal)]));
    return { kind: "response", response };
  } catch (error) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (cutoff.timedOut || isUndiciTimeout(error)) return { kind: "timeout", cause: error };
    return { kind: "connection", cause: error, reason: describeCause(error) };
  } finally {
    cutoff.end();
  }
}

/** Rejects when the attempt is cut off. The signal is the attempt's own, so its listener goes with it. */
function rejectOnCutoff(signal: EventEmitter): Promise<never> {
  return new Promise((_, reject) => {
    signal.once("abort", () => reject(new AttemptCutOff("the attempt was cut off")));
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
