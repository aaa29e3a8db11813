import { NetworkError } from "@socialpub/core";
import { describeFetchFailure } from "../common/fetch-failure.ts";

/*
 * Calls to the YouTube Data API v3 (www.googleapis.com/youtube/v3 and its upload twin
 * /upload/youtube/v3) with a channel's access token, and what Google's errors mean. Google answers
 * errors as `{error: {code, message, errors: [{reason, domain, message}], status}}`; the `reason` says
 * more than the status: a 403 is a used-up quota (quotaExceeded), the channel's upload limit
 * (uploadLimitExceeded), a missing scope (insufficientPermissions) or a plain refusal.
 */

export interface YouTubeApiConfig {
  /** https://www.googleapis.com, without a path. */
  apiUrl: string;
  fetch: typeof fetch;
  now: () => number;
}

/** An answer as the adapter reads it: the status, the headers, and the JSON body (null when none). */
export interface YouTubeAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | null;
}

/** Where the daily quota of a Google Cloud project resets: midnight Pacific Time. */
const QUOTA_TIME_ZONE = "America/Los_Angeles";
const DAY_MS = 24 * 60 * 60_000;

/** Milliseconds from `now` until the next midnight in Pacific Time, when YouTube's daily quota resets. */
export function untilQuotaReset(now: number): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: QUOTA_TIME_ZONE,
    hourCycle: "h23",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(new Date(now));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const into = ((part("hour") * 60 + part("minute")) * 60 + part("second")) * 1000 + (now % 1000);
  return Math.max(1000, DAY_MS - into);
}

function reasonOf(body: Record<string, unknown> | null): { reason: string; message: string } {
  const error = (body?.error ?? {}) as { message?: unknown; errors?: unknown };
  const first = Array.isArray(error.errors) ? ((error.errors[0] ?? {}) as { reason?: unknown }) : {};
  return {
    reason: typeof first.reason === "string" ? first.reason : "",
    message: typeof error.message === "string" ? error.message.replace(/<[^>]*>/g, "") : "",
  };
}

/** Google's retry hint (Retry-After in seconds), or `fallback`. */
function retryAfterMs(headers: Headers, fallback: number): number {
  const seconds = Number(headers.get("retry-after"));
  return headers.has("retry-after") && Number.isFinite(seconds) && seconds >= 0
    ? Math.max(1000, seconds * 1000)
    : fallback;
}

export function youtubeError(answer: YouTubeAnswer, now: number): NetworkError {
  const { status, headers } = answer;
  const { reason, message } = reasonOf(answer.body);
  const said = `(YouTube said: ${status}${reason ? ` ${reason}` : ""}${message ? `: ${message}` : ""})`;
  if (reason === "quotaExceeded" || reason === "dailyLimitExceeded") {
    const wait = untilQuotaReset(now);
    return new NetworkError(
      "youtube",
      "retry",
      `The YouTube Data API quota of this server's Google Cloud project is used up until ${new Date(now + wait).toISOString()} (midnight Pacific Time); the video waits until then ${said}.`,
      { status, retryAfterMs: wait },
    );
  }
  if (reason === "uploadLimitExceeded") {
    return new NetworkError(
      "youtube",
      "retry",
      `The YouTube channel has uploaded as many videos as YouTube allows for now; the video is tried again in 24 hours ${said}.`,
      { status, retryAfterMs: DAY_MS },
    );
  }
  if (status === 429 || reason === "rateLimitExceeded" || reason === "userRateLimitExceeded") {
    const wait = retryAfterMs(headers, 60_000);
    return new NetworkError(
      "youtube",
      "retry",
      `YouTube asks to slow down; the video is tried again in ${Math.ceil(wait / 1000)} s ${said}.`,
      { status, retryAfterMs: wait },
    );
  }
  if (status === 401) {
    return new NetworkError(
      "youtube",
      "reauth",
      `YouTube does not accept the channel's token any more (expired or revoked) ${said}`,
      { status },
    );
  }
  if (reason === "insufficientPermissions") {
    return new NetworkError(
      "youtube",
      "reauth",
      `The channel's grant lacks a permission uploading needs (youtube.upload); connect the account again and allow it ${said}.`,
      { status },
    );
  }
  if (status >= 500) {
    const hint = headers.has("retry-after") ? retryAfterMs(headers, 1000) : undefined;
    return new NetworkError("youtube", "retry", `YouTube failed to answer; it will be tried again ${said}.`, {
      status,
      ...(hint !== undefined && { retryAfterMs: hint }),
    });
  }
  if (status === 403) {
    return new NetworkError(
      "youtube",
      "refused",
      `YouTube does not let this channel or app do that (the channel may need verifying, or the app's access was limited) ${said}.`,
      { status },
    );
  }
  return new NetworkError("youtube", "refused", `YouTube refused the video ${said}.`, { status });
}

export interface SendOptions {
  method: string;
  /** Absolute URL (an upload session), or a path under the API's base URL. */
  url: string;
  headers?: Record<string, string>;
  body?: Uint8Array<ArrayBuffer> | string;
  signal: AbortSignal;
  /**
   * Whether the request makes nothing on YouTube by itself (a read, opening an upload session, a part
   * of an upload the session then says it has): a lost answer is then `retry`, not `unknown`.
   */
  idempotent: boolean;
}

/** One request with the channel's token; answers whatever YouTube answered (the caller reads the status). */
export async function youtubeSend(
  config: YouTubeApiConfig,
  token: string,
  options: SendOptions,
): Promise<YouTubeAnswer> {
  const url = /^https?:\/\//.test(options.url) ? options.url : `${config.apiUrl}${options.url}`;
  let response: Response;
  try {
    response = await config.fetch(url, {
      method: options.method,
      headers: { authorization: `Bearer ${token}`, ...options.headers },
      ...(options.body !== undefined && { body: options.body }),
      signal: options.signal,
      redirect: "manual",
    });
  } catch (cause) {
    const failure = describeFetchFailure(cause, options.signal);
    const kind = failure.notSent || options.idempotent ? "retry" : "unknown";
    throw new NetworkError("youtube", kind, `YouTube ${failure.reason}`, { cause });
  }
  const text = await response.text().catch(() => "");
  let body: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (parsed && typeof parsed === "object") body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (an empty 308, a proxy's page): the status says what happened.
  }
  return { status: response.status, headers: response.headers, body };
}

/** A JSON read under /youtube/v3; a non-2xx answer is thrown, classified. */
export async function youtubeGet(
  config: YouTubeApiConfig,
  token: string,
  path: string,
  query: Record<string, string>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const answer = await youtubeSend(config, token, {
    method: "GET",
    url: `/youtube/v3${path}?${new URLSearchParams(query)}`,
    headers: { accept: "application/json" },
    signal,
    idempotent: true,
  });
  if (answer.status < 200 || answer.status >= 300) throw youtubeError(answer, config.now());
  return answer.body ?? {};
}
