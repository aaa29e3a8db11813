import { NetworkError } from "@socialpub/core";
import { describeFetchFailure } from "../common/fetch-failure.ts";

/*
 * Calls to Meta's Graph API with a Page's access token, and what its errors mean. Graph answers errors
 * as `{error: {message, type, code, error_subcode}}` and classifies them by code, not HTTP status:
 * 190 (token invalid or expired) means the grant is gone; 4, 17, 32 and 613 are rate limits, with the
 * Page's usage in X-Business-Use-Case-Usage (estimated_time_to_regain_access, in minutes).
 */

/** The Graph API version this adapter was written against. */
export const GRAPH_VERSION = "v23.0";

export interface FacebookApiConfig {
  /** https://graph.facebook.com, with the version: https://graph.facebook.com/v23.0 */
  graphUrl: string;
  fetch: typeof fetch;
  now: () => number;
}

const RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80001]);

interface GraphError {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
}

/** Minutes until Meta lets the Page call again, from X-Business-Use-Case-Usage; null when it does not say. */
export function regainAccessMs(headers: Headers): number | null {
  const usage = headers.get("x-business-use-case-usage");
  if (!usage) return null;
  try {
    const byPage = JSON.parse(usage) as Record<string, { estimated_time_to_regain_access?: number }[]>;
    const minutes = Math.max(
      0,
      ...Object.values(byPage).flatMap((entries) =>
        entries.map((e) => e.estimated_time_to_regain_access ?? 0),
      ),
    );
    return minutes > 0 ? minutes * 60_000 : null;
  } catch {
    return null;
  }
}

export function facebookError(status: number, body: unknown, headers: Headers, now: number): NetworkError {
  const error = ((body ?? {}) as { error?: GraphError }).error ?? {};
  const said = `(Facebook said: ${status}${error.code !== undefined ? ` code ${error.code}` : ""}${error.message ? `: ${error.message}` : ""})`;
  if (error.code === 190 || status === 401) {
    return new NetworkError(
      "facebook",
      "reauth",
      `Facebook does not accept the Page's token any more (expired, the password changed, or the app was removed) ${said}`,
      { status },
    );
  }
  if ((error.code !== undefined && RATE_LIMIT_CODES.has(error.code)) || status === 429) {
    const retryAfterMs = regainAccessMs(headers) ?? 15 * 60_000;
    return new NetworkError(
      "facebook",
      "retry",
      `Facebook's limit for this Page or app is used up until ${new Date(now + retryAfterMs).toISOString()}; the post waits until then ${said}.`,
      { status, retryAfterMs },
    );
  }
  if (status >= 500 || error.code === 1 || error.code === 2) {
    return new NetworkError(
      "facebook",
      "retry",
      `Facebook failed to answer; it will be tried again ${said}.`,
      { status },
    );
  }
  if (
    error.code === 10 ||
    error.code === 200 ||
    (error.code !== undefined && error.code > 200 && error.code < 300)
  ) {
    return new NetworkError(
      "facebook",
      "refused",
      `Facebook does not let this app post to the Page (the pages_manage_posts permission, the app's review, or the user's role on the Page) ${said}.`,
      { status },
    );
  }
  return new NetworkError("facebook", "refused", `Facebook refused the post ${said}.`, { status });
}

/**
 * One Graph call with `token`; `body` is sent as a form (urlencoded, or multipart with a file). Before
 * anything was sent a failure is `retry`; after, with no answer, `unknown`, unless `idempotent`.
 */
export async function graphCall(
  config: FacebookApiConfig,
  token: string,
  method: string,
  path: string,
  body: URLSearchParams | FormData | null,
  signal: AbortSignal,
  idempotent = false,
): Promise<unknown> {
  let response: Response;
  try {
    response = await config.fetch(`${config.graphUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      ...(body && { body }),
      signal,
    });
  } catch (cause) {
    const failure = describeFetchFailure(cause, signal);
    const kind = failure.notSent || idempotent ? "retry" : "unknown";
    throw new NetworkError("facebook", kind, `Facebook ${failure.reason}`, { cause });
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw facebookError(response.status, answer, response.headers, config.now());
  return answer;
}
