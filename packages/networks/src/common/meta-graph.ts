import { NetworkError, type NetworkId } from "@socialpub/core";
import { describeFetchFailure } from "./fetch-failure.ts";

/*
 * Calls to one of Meta's Graph APIs (graph.threads.net, graph.instagram.com) with a user's token, and
 * what their errors mean. Meta answers every error as {error: {message, type, code, error_subcode,
 * error_user_msg, fbtrace_id}}; the code, not the HTTP status, says what happened
 * (developers.facebook.com/docs/graph-api/guides/error-handling). Throttling is said in the
 * X-Business-Use-Case-Usage header (estimated_time_to_regain_access, in minutes) or X-App-Usage.
 */

export interface MetaGraphConfig {
  network: NetworkId;
  /** The network's name as errors say it. */
  name: string;
  /** https://graph.threads.net/v1.0, https://graph.instagram.com/v23.0: no trailing slash. */
  baseUrl: string;
  fetch: typeof fetch;
  now: () => number;
}

/** Codes of a token that no longer works: expired, revoked, password changed, app removed. */
const TOKEN_GONE = new Set([102, 190]);
/** Codes of a grant that lacks a permission the call needs: reconnecting grants it. */
const PERMISSION = new Set([10, 200, 299]);
/** Codes of throttling: application, user, page and business-use-case limits. */
const THROTTLED = new Set([4, 17, 32, 613, 80001, 80002, 80006, 80008]);
/** Subcode of a publishing limit used up (Instagram's 50 posts and Threads' 250 posts per 24 hours). */
export const PUBLISHING_LIMIT_SUBCODE = 2207042;
/** Subcodes and codes of media Meta could not fetch or does not take. */
const BAD_MEDIA = new Set([9004, 2207026, 2207052, 2207003, 2207004, 2207005, 36003, 36004]);

const DAY_MS = 24 * 60 * 60_000;

interface MetaErrorBody {
  message?: string;
  code?: number;
  error_subcode?: number;
  error_user_msg?: string;
  is_transient?: boolean;
}

/** Minutes until access comes back, from Meta's usage headers, in milliseconds; undefined when not said. */
function regainAfterMs(headers: Headers): number | undefined {
  for (const name of ["x-business-use-case-usage", "x-app-usage"]) {
    const raw = headers.get(name);
    if (!raw) continue;
    try {
      const minutes = JSON.stringify(JSON.parse(raw)).match(/"estimated_time_to_regain_access":(\d+)/);
      if (minutes) return Math.max(60_000, Number(minutes[1]) * 60_000);
    } catch {
      // A header Meta wrote differently says nothing we can use.
    }
  }
  return undefined;
}

export function metaError(
  config: Pick<MetaGraphConfig, "network" | "name">,
  status: number,
  body: unknown,
  headers: Headers,
): NetworkError {
  const error = ((body ?? {}) as { error?: MetaErrorBody }).error ?? {};
  const code = typeof error.code === "number" ? error.code : 0;
  const subcode = typeof error.error_subcode === "number" ? error.error_subcode : 0;
  const words = [error.error_user_msg, error.message].filter((s): s is string => typeof s === "string");
  const said = `(${config.name} said: ${status}${code ? ` code ${code}` : ""}${subcode ? `/${subcode}` : ""}${words.length > 0 ? ` ${[...new Set(words)].join(": ")}` : ""})`;
  const { network, name } = config;
  if (subcode === PUBLISHING_LIMIT_SUBCODE) {
    return new NetworkError(
      network,
      "retry",
      `${name}'s limit of posts per 24 hours for this account is used up; the post waits and is tried again ${said}.`,
      { status, retryAfterMs: Math.min(DAY_MS, regainAfterMs(headers) ?? 60 * 60_000) },
    );
  }
  if (TOKEN_GONE.has(code) || status === 401) {
    return new NetworkError(
      network,
      "reauth",
      `${name} does not accept the account's token any more (expired, revoked, or the app was removed) ${said}`,
      { status },
    );
  }
  if (PERMISSION.has(code)) {
    return new NetworkError(
      network,
      "reauth",
      `${name} says the account's grant lacks a permission publishing needs ${said}`,
      { status },
    );
  }
  if (THROTTLED.has(code) || status === 429) {
    const retryAfterMs = regainAfterMs(headers) ?? 60 * 60_000;
    return new NetworkError(
      network,
      "retry",
      `${name}'s request limit for this account or app is reached; the post waits about ${Math.ceil(retryAfterMs / 60_000)} minutes ${said}.`,
      { status, retryAfterMs },
    );
  }
  if (BAD_MEDIA.has(subcode) || BAD_MEDIA.has(code)) {
    return new NetworkError(
      network,
      "refused",
      `${name} could not use the post's media (it must be a public JPEG or PNG it can fetch) ${said}.`,
      { status },
    );
  }
  if (status >= 500 || code === 1 || code === 2 || error.is_transient === true) {
    return new NetworkError(network, "retry", `${name} failed to answer; it will be tried again ${said}.`, {
      status,
    });
  }
  return new NetworkError(network, "refused", `${name} refused the post ${said}.`, { status });
}

/**
 * One call with the user's token (sent as a Bearer header, never in the URL, so no URL we might show
 * carries it). Before anything was sent a failure is `retry`; after, with no answer, `unknown` (it may
 * have been made), unless `idempotent`.
 */
export async function metaCall(
  config: MetaGraphConfig,
  token: string,
  method: "GET" | "POST",
  path: string,
  params: Record<string, string>,
  signal: AbortSignal,
  idempotent = method === "GET",
): Promise<Record<string, unknown>> {
  const url = new URL(`${config.baseUrl}${path}`);
  const init: RequestInit = {
    method,
    headers: { authorization: `Bearer ${token}`, accept: "application/json" },
    signal,
  };
  if (method === "GET") {
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  } else {
    init.body = new URLSearchParams(params);
  }
  let response: Response;
  try {
    response = await config.fetch(url, init);
  } catch (cause) {
    const failure = describeFetchFailure(cause, signal);
    const kind = failure.notSent || idempotent ? "retry" : "unknown";
    throw new NetworkError(config.network, kind, `${config.name} ${failure.reason}`, { cause });
  }
  const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok || answer === null || "error" in answer) {
    throw metaError(config, response.status, answer, response.headers);
  }
  return answer;
}
