/*
 * What a failed fetch (no HTTP answer at all) means for a request. Only the failure's code is read:
 * the error's own message and cause can carry the request URL, and for Telegram and Discord the URL
 * holds the secret, so nothing of them is passed on.
 */

/** Codes that mean the connection never opened, so nothing was sent. */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
]);

export interface FetchFailure {
  /** True when the request certainly did not reach the network. */
  notSent: boolean;
  /** A short reason without any part of the URL: "connection refused", "timed out", … */
  reason: string;
}

function codeOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function describeFetchFailure(error: unknown, signal: AbortSignal): FetchFailure {
  if (signal.aborted) {
    const timeout = signal.reason instanceof DOMException && signal.reason.name === "TimeoutError";
    return { notSent: false, reason: timeout ? "timed out waiting for its answer" : "was cancelled" };
  }
  const code = codeOf(error);
  if (code && NOT_SENT.has(code)) {
    const reason =
      code === "ECONNREFUSED"
        ? "refused the connection"
        : code === "ENOTFOUND" || code === "EAI_AGAIN"
          ? "could not be found (DNS)"
          : code.startsWith("UND_ERR_CONNECT")
            ? "did not accept the connection in time"
            : code.includes("CERT")
              ? "presented a TLS certificate that could not be verified"
              : "could not be reached";
    return { notSent: true, reason };
  }
  return { notSent: false, reason: `closed the connection before answering${code ? ` (${code})` : ""}` };
}
