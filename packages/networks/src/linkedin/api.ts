import { NetworkError } from "@socialpub/core";
import { describeFetchFailure } from "../common/fetch-failure.ts";

/*
 * Calls to LinkedIn's versioned REST API (api.linkedin.com/rest/…) with a member's access token. Every
 * call names the API version it was written against (LinkedIn-Version: YYYYMM; a version LinkedIn has
 * retired answers 426) and Rest.li protocol 2.0.0. Errors come as `{status, serviceErrorCode, code,
 * message}`; the daily limits answer 429 and reset at midnight UTC.
 */

/** The API version this adapter was written against; LinkedIn supports each for a year. */
export const LINKEDIN_VERSION = "202511";

export interface LinkedInApiConfig {
  /** https://api.linkedin.com */
  apiUrl: string;
  version: string;
  fetch: typeof fetch;
  now: () => number;
}

function saidBy(body: unknown, status: number): string {
  const b = (body ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof b.code === "string" ? ` ${b.code}` : "";
  const message = typeof b.message === "string" ? `: ${b.message}` : "";
  return `(LinkedIn said: ${status}${code}${message})`;
}

/** LinkedIn's daily limits end at midnight UTC; a Retry-After, when given, is used instead. */
function retryAfterMs(headers: Headers, now: number): number {
  const seconds = Number(headers.get("retry-after"));
  if (headers.has("retry-after") && Number.isFinite(seconds) && seconds >= 0)
    return Math.max(1000, seconds * 1000);
  const midnight = new Date(now);
  midnight.setUTCHours(24, 0, 0, 0);
  return Math.max(1000, midnight.getTime() - now);
}

export function linkedinError(status: number, body: unknown, headers: Headers, now: number): NetworkError {
  const said = saidBy(body, status);
  if (status === 429) {
    const wait = retryAfterMs(headers, now);
    return new NetworkError(
      "linkedin",
      "retry",
      `LinkedIn's daily limit for this member or app is used up until ${new Date(now + wait).toISOString()}; the post waits until then ${said}.`,
      { status, retryAfterMs: wait },
    );
  }
  if (status === 401) {
    return new NetworkError(
      "linkedin",
      "reauth",
      `LinkedIn does not accept the member's token any more (expired or revoked) ${said}`,
      { status },
    );
  }
  if (status === 426) {
    return new NetworkError(
      "linkedin",
      "refused",
      `LinkedIn no longer serves API version ${headers.get("x-requested-version") ?? "asked for"}; this server needs updating ${said}.`,
      { status },
    );
  }
  if (status >= 500) {
    return new NetworkError(
      "linkedin",
      "retry",
      `LinkedIn failed to answer; it will be tried again ${said}.`,
      { status },
    );
  }
  if (status === 403) {
    return new NetworkError(
      "linkedin",
      "refused",
      `LinkedIn does not let this app post for the member (the w_member_social scope, or the app's products) ${said}.`,
      { status },
    );
  }
  return new NetworkError("linkedin", "refused", `LinkedIn refused the post ${said}.`, { status });
}

/**
 * One call with the member's token; answers the body (null when empty) and headers. Before anything
 * was sent a failure is `retry`; after, with no answer, `unknown`, unless `idempotent`. `extraHeaders`
 * adds what one kind of call needs (a finder's X-RestLi-Method).
 */
export async function linkedinCall(
  config: LinkedInApiConfig,
  token: string,
  method: string,
  url: string,
  body: { json: unknown } | { bytes: Uint8Array; type: string } | null,
  signal: AbortSignal,
  idempotent = false,
  extraHeaders: Record<string, string> = {},
): Promise<{ body: unknown; headers: Headers }> {
  const headers: Record<string, string> = {
    ...extraHeaders,
    authorization: `Bearer ${token}`,
    "linkedin-version": config.version,
    "x-restli-protocol-version": "2.0.0",
  };
  let payload: BodyInit | undefined;
  if (body && "json" in body) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body.json);
  } else if (body) {
    headers["content-type"] = body.type;
    payload = new Uint8Array(body.bytes);
  }
  let response: Response;
  try {
    const target = url.startsWith("http") ? url : `${config.apiUrl}${url}`;
    response = await config.fetch(target, { method, headers, body: payload, signal });
  } catch (cause) {
    const failure = describeFetchFailure(cause, signal);
    const kind = failure.notSent || idempotent ? "retry" : "unknown";
    throw new NetworkError("linkedin", kind, `LinkedIn ${failure.reason}`, { cause });
  }
  const text = await response.text().catch(() => "");
  let answer: unknown = null;
  try {
    answer = text ? JSON.parse(text) : null;
  } catch {
    answer = null;
  }
  if (!response.ok) throw linkedinError(response.status, answer, response.headers, config.now());
  return { body: answer, headers: response.headers };
}
