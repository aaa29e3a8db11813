import { NetworkError } from "@socialpub/core";
import { describeFetchFailure } from "../common/fetch-failure.ts";
import type { XOAuth1Signer } from "./oauth1.ts";

/*
 * Calls to the X API v2 with a user's OAuth 2.0 access token (or signed with OAuth 1.0a user-context
 * credentials, oauth1.ts), and what its errors mean. X answers
 * errors as `{title, detail, type, status}` (problem JSON) or `{errors:[{message}]}`, and says its
 * limits in x-rate-limit-limit / -remaining / -reset (the reset as Unix seconds).
 */

export interface XApiConfig {
  apiUrl: string;
  fetch: typeof fetch;
  now: () => number;
}

/** What X said, in one line. */
export function xSaidBy(body: unknown, status: number): string {
  const b = (body ?? {}) as Record<string, unknown>;
  const first = Array.isArray(b.errors) ? (b.errors[0] as Record<string, unknown> | undefined) : undefined;
  const text = [b.title, b.detail, first?.title, first?.detail, first?.message, b.message].filter(
    (v) => typeof v === "string",
  );
  return `(X said: ${status}${text.length > 0 ? ` ${[...new Set(text)].join(": ")}` : ""})`;
}

/** How a call is authorized: a user's OAuth 2.0 access token, or an OAuth 1.0a signer. */
export type XAuth = string | XOAuth1Signer;

export function xError(
  status: number,
  body: unknown,
  headers: Headers,
  now: number,
  oauth1 = false,
): NetworkError {
  const said = xSaidBy(body, status);
  if (status === 429) {
    const reset = Number(headers.get("x-rate-limit-reset"));
    const retryAfterMs = Number.isFinite(reset) && reset > 0 ? Math.max(1000, reset * 1000 - now) : 60_000;
    return new NetworkError(
      "x",
      "retry",
      `X's limit for this account or app is used up until ${new Date(now + retryAfterMs).toISOString()}; the post waits until then ${said}.`,
      { status, retryAfterMs },
    );
  }
  if (status === 401 && oauth1) {
    return new NetworkError(
      "x",
      "reauth",
      `X does not accept the API key and access token: one of the four is wrong, or was regenerated on X's developer portal ${said}`,
      { status },
    );
  }
  if (status === 401) {
    return new NetworkError(
      "x",
      "reauth",
      `X does not accept the account's token any more (revoked, or the app's access was removed) ${said}`,
      { status },
    );
  }
  if (status >= 500) {
    return new NetworkError("x", "retry", `X failed to answer; it will be tried again ${said}.`, { status });
  }
  if (status === 403 && /duplicate/i.test(said)) {
    return new NetworkError("x", "refused", `X refuses a post identical to a recent one ${said}.`, {
      status,
    });
  }
  if (status === 403) {
    return new NetworkError(
      "x",
      "refused",
      `X does not let this account or app do that (the app's access level, or the account's standing) ${said}.`,
      { status },
    );
  }
  return new NetworkError("x", "refused", `X refused the post ${said}.`, { status });
}

/**
 * One call with the access token. Before anything was sent a failure is `retry`; after, with no answer,
 * `unknown` (it may have been made), unless `idempotent`.
 */
export async function xCall(
  config: XApiConfig,
  token: XAuth,
  method: string,
  path: string,
  body: { json: unknown } | { form: FormData } | null,
  signal: AbortSignal,
  idempotent = false,
): Promise<unknown> {
  const url = `${config.apiUrl}${path}`;
  const authorization = typeof token === "string" ? `Bearer ${token}` : token.authorization(method, url);
  const headers: Record<string, string> = { authorization, accept: "application/json" };
  let payload: BodyInit | undefined;
  if (body && "json" in body) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body.json);
  } else if (body) {
    payload = body.form;
  }
  let response: Response;
  try {
    response = await config.fetch(url, { method, headers, body: payload, signal });
  } catch (cause) {
    const failure = describeFetchFailure(cause, signal);
    const kind = failure.notSent || idempotent ? "retry" : "unknown";
    throw new NetworkError("x", kind, `X ${failure.reason}`, { cause });
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok)
    throw xError(response.status, answer, response.headers, config.now(), typeof token !== "string");
  return answer;
}
