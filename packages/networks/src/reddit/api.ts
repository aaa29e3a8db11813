import { NetworkError } from "@socialpub/core";
import { describeFetchFailure } from "../common/fetch-failure.ts";

/*
 * Calls to Reddit's OAuth API (oauth.reddit.com) with a user's access token and the app's descriptive
 * User-Agent (Reddit throttles generic ones). Reddit says its limits in X-Ratelimit-Used / -Remaining /
 * -Reset (seconds until the window ends), answers HTTP errors as `{message, error}`, and answers a
 * refused submit with HTTP 200 and `{json: {errors: [[code, message, field]]}}`.
 */

export interface RedditApiConfig {
  /** https://oauth.reddit.com */
  apiUrl: string;
  userAgent: string;
  fetch: typeof fetch;
  now: () => number;
}

function saidBy(body: unknown, status: number): string {
  const b = (body ?? {}) as { message?: unknown; error?: unknown };
  const message = typeof b.message === "string" ? `: ${b.message}` : "";
  return `(Reddit said: ${status}${message})`;
}

/** Seconds until Reddit's window ends, from X-Ratelimit-Reset; 60 s when absent. */
export function redditRetryAfterMs(headers: Headers): number {
  const seconds = Number(headers.get("x-ratelimit-reset"));
  return headers.has("x-ratelimit-reset") && Number.isFinite(seconds) && seconds >= 0
    ? Math.max(1000, seconds * 1000)
    : 60_000;
}

export function redditError(status: number, body: unknown, headers: Headers, now: number): NetworkError {
  const said = saidBy(body, status);
  if (status === 429) {
    const retryAfterMs = redditRetryAfterMs(headers);
    return new NetworkError(
      "reddit",
      "retry",
      `Reddit's limit for this app is used up until ${new Date(now + retryAfterMs).toISOString()}; the post waits until then ${said}.`,
      { status, retryAfterMs },
    );
  }
  if (status === 401) {
    return new NetworkError(
      "reddit",
      "reauth",
      `Reddit does not accept the account's token any more (revoked, or the app's access was removed) ${said}`,
      { status },
    );
  }
  if (status >= 500) {
    return new NetworkError("reddit", "retry", `Reddit failed to answer; it will be tried again ${said}.`, {
      status,
    });
  }
  if (status === 403) {
    return new NetworkError(
      "reddit",
      "refused",
      `Reddit does not let this account post there (banned, private or restricted subreddit, or a missing scope) ${said}.`,
      { status },
    );
  }
  return new NetworkError("reddit", "refused", `Reddit refused the request ${said}.`, { status });
}

/**
 * One call with the access token; `form` is sent urlencoded (`{json}`: as JSON, as the gallery submit
 * takes it). Before anything was sent a failure is
 * `retry`; after, with no answer, `unknown` (it may have been made), unless `idempotent`.
 */
export async function redditCall(
  config: RedditApiConfig,
  token: string,
  method: string,
  path: string,
  form: Record<string, string> | { json: unknown } | null,
  signal: AbortSignal,
  idempotent = false,
): Promise<unknown> {
  const headers: Record<string, string> = {
    authorization: `bearer ${token}`,
    accept: "application/json",
    "user-agent": config.userAgent,
  };
  let body: string | undefined;
  if (form && "json" in form) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(form.json);
  } else if (form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(form as Record<string, string>).toString();
  }
  let response: Response;
  try {
    response = await config.fetch(`${config.apiUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body }),
      signal,
    });
  } catch (cause) {
    const failure = describeFetchFailure(cause, signal);
    const kind = failure.notSent || idempotent ? "retry" : "unknown";
    throw new NetworkError("reddit", kind, `Reddit ${failure.reason}`, { cause });
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw redditError(response.status, answer, response.headers, config.now());
  return answer;
}
