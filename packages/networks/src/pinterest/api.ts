import { NetworkError } from "@socialpub/core";
import { describeFetchFailure } from "../common/fetch-failure.ts";

/*
 * Calls to the Pinterest API v5 with a user's access token, and what its errors mean. Pinterest answers
 * errors as `{code, message}` and says its limits in x-ratelimit-limit / -remaining / -reset (the reset
 * as seconds from now); a 429 may also carry Retry-After.
 */

export interface PinterestApiConfig {
  /** https://api.pinterest.com (or api-sandbox.pinterest.com for apps with trial access), without /v5. */
  apiUrl: string;
  fetch: typeof fetch;
  now: () => number;
}

function saidBy(body: unknown, status: number): string {
  const b = (body ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof b.code === "number" ? ` code ${b.code}` : "";
  const message = typeof b.message === "string" ? `: ${b.message}` : "";
  return `(Pinterest said: ${status}${code}${message})`;
}

/** How long Pinterest asks to wait, from Retry-After or x-ratelimit-reset (both seconds); 60 s when neither. */
export function pinterestRetryAfterMs(headers: Headers): number {
  for (const name of ["retry-after", "x-ratelimit-reset"]) {
    const seconds = Number(headers.get(name));
    if (headers.has(name) && Number.isFinite(seconds) && seconds >= 0) return Math.max(1000, seconds * 1000);
  }
  return 60_000;
}

export function pinterestError(status: number, body: unknown, headers: Headers, now: number): NetworkError {
  const said = saidBy(body, status);
  if (status === 429) {
    const retryAfterMs = pinterestRetryAfterMs(headers);
    return new NetworkError(
      "pinterest",
      "retry",
      `Pinterest's limit for this account or app is used up until ${new Date(now + retryAfterMs).toISOString()}; the pin waits until then ${said}.`,
      { status, retryAfterMs },
    );
  }
  if (status === 401) {
    return new NetworkError(
      "pinterest",
      "reauth",
      `Pinterest does not accept the account's token any more (revoked, or the app's access was removed) ${said}`,
      { status },
    );
  }
  if (status >= 500) {
    return new NetworkError(
      "pinterest",
      "retry",
      `Pinterest failed to answer; it will be tried again ${said}.`,
      {
        status,
      },
    );
  }
  if (status === 404) {
    return new NetworkError(
      "pinterest",
      "refused",
      `Pinterest does not know the board chosen at connect (deleted, or no longer the account's); connect the account again to choose a board ${said}.`,
      { status },
    );
  }
  if (status === 403) {
    return new NetworkError(
      "pinterest",
      "refused",
      `Pinterest does not let this account or app do that (the app's access level, the scopes granted at connect, or the board's permissions) ${said}.`,
      { status },
    );
  }
  return new NetworkError("pinterest", "refused", `Pinterest refused the pin ${said}.`, { status });
}

/**
 * One call to /v5`path` with the access token. Before anything was sent a failure is `retry`; after,
 * with no answer, `unknown` (it may have been made), unless `idempotent`.
 */
export async function pinterestCall(
  config: PinterestApiConfig,
  token: string,
  method: string,
  path: string,
  json: unknown,
  signal: AbortSignal,
  idempotent = false,
): Promise<unknown> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
  if (json !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await config.fetch(`${config.apiUrl}/v5${path}`, {
      method,
      headers,
      ...(json !== undefined && { body: JSON.stringify(json) }),
      signal,
    });
  } catch (cause) {
    const failure = describeFetchFailure(cause, signal);
    const kind = failure.notSent || idempotent ? "retry" : "unknown";
    throw new NetworkError("pinterest", kind, `Pinterest ${failure.reason}`, { cause });
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw pinterestError(response.status, answer, response.headers, config.now());
  return answer;
}
