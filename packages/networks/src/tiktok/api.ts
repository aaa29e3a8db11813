import { NetworkError } from "@socialpub/core";
import { describeFetchFailure } from "../common/fetch-failure.ts";

/*
 * Calls to TikTok's Open API v2 (open.tiktokapis.com) with a creator's access token. Every answer is
 * the envelope `{data, error: {code, message, log_id}}`, and `error.code` is "ok" on success; the code,
 * more than the HTTP status, says what happened (developers.tiktok.com, "Content Posting API": error
 * codes). Bodies are JSON in UTF-8; the token goes in a Bearer header, never in a URL.
 */

export interface TikTokApiConfig {
  /** https://open.tiktokapis.com, without a trailing slash. */
  apiUrl: string;
  fetch: typeof fetch;
  now: () => number;
}

/** A minute: TikTok's rate limits are counted per minute and it sends no retry hint. */
const MINUTE_MS = 60_000;
/** The creator's or the app's daily caps: looked at again after an hour. */
const HOUR_MS = 60 * MINUTE_MS;

interface Envelope {
  data?: Record<string, unknown>;
  error?: { code?: string; message?: string; log_id?: string };
}

/** What TikTok said, with its log id, in one line (never the token). */
function saidBy(status: number, body: Envelope | null): string {
  const code = body?.error?.code;
  const message = body?.error?.message;
  const log = body?.error?.log_id ? `, log id ${body.error.log_id}` : "";
  return `(TikTok said: ${status}${code ? ` ${code}` : ""}${message ? `: ${message}` : ""}${log})`;
}

function retryAfterMs(headers: Headers, fallback: number): number {
  const seconds = Number(headers.get("retry-after"));
  return headers.has("retry-after") && Number.isFinite(seconds) && seconds >= 0
    ? Math.max(1000, seconds * 1000)
    : fallback;
}

export function tiktokError(status: number, body: Envelope | null, headers: Headers): NetworkError {
  const code = body?.error?.code ?? "";
  const said = saidBy(status, body);
  const fail = (kind: "retry" | "reauth" | "refused", text: string, wait?: number) =>
    new NetworkError("tiktok", kind, `${text} ${said}.`, {
      status,
      ...(wait !== undefined && { retryAfterMs: wait }),
    });
  switch (code) {
    case "access_token_invalid":
      return fail("reauth", "TikTok does not accept the account's token any more (expired or revoked)");
    case "scope_not_authorized":
    case "scope_permission_missed":
      return fail("reauth", "TikTok says the account's grant lacks video.publish; connect the account again");
    case "rate_limit_exceeded": {
      const wait = retryAfterMs(headers, MINUTE_MS);
      return fail(
        "retry",
        `TikTok's limit of requests a minute for this account is reached; the post waits ${Math.ceil(wait / 1000)} s`,
        wait,
      );
    }
    case "spam_risk_too_many_posts":
      return fail(
        "retry",
        "TikTok's limit of posts a day through apps for this creator is reached; the post waits and is tried again",
        retryAfterMs(headers, HOUR_MS),
      );
    case "reached_active_user_cap":
      return fail(
        "retry",
        "TikTok's daily cap of creators posting through this app is reached; the post waits and is tried again",
        retryAfterMs(headers, HOUR_MS),
      );
    case "spam_risk_user_banned_from_posting":
      return fail("refused", "TikTok does not let this creator post at the moment (banned from posting)");
    case "unaudited_client_can_only_post_to_private_accounts":
      return fail(
        "refused",
        "TikTok takes posts from this app only as private (SELF_ONLY) until the app passes TikTok's audit; unset SOCIALPUB_TIKTOK_AUDITED",
      );
    case "url_ownership_unverified":
      return fail(
        "refused",
        "TikTok fetches media only from a domain verified in the app's settings; verify it, or leave it out of SOCIALPUB_TIKTOK_VERIFIED_DOMAINS",
      );
    case "privacy_level_option_mismatch":
      return fail("refused", "TikTok does not offer this creator the privacy level asked for");
    default:
      break;
  }
  if (status === 401) return fail("reauth", "TikTok does not accept the account's token any more");
  if (status === 429) return fail("retry", "TikTok asks to slow down", retryAfterMs(headers, MINUTE_MS));
  if (status >= 500 || code === "internal_error") {
    return fail("retry", "TikTok failed to answer; it will be tried again");
  }
  return fail("refused", "TikTok refused the post");
}

/**
 * One POST with the creator's token and a JSON body; answers the envelope's `data`. Before anything was
 * sent a failure is `retry`; after, with no answer, `unknown` (it may have been made), unless
 * `idempotent` (a query).
 */
export async function tiktokCall(
  config: TikTokApiConfig,
  token: string,
  path: string,
  json: unknown,
  signal: AbortSignal,
  idempotent = false,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await config.fetch(`${config.apiUrl}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json; charset=UTF-8",
        accept: "application/json",
      },
      body: json === undefined ? undefined : JSON.stringify(json),
      signal,
    });
  } catch (cause) {
    const failure = describeFetchFailure(cause, signal);
    const kind = failure.notSent || idempotent ? "retry" : "unknown";
    throw new NetworkError("tiktok", kind, `TikTok ${failure.reason}`, { cause });
  }
  const answer = parseEnvelope(await response.text().catch(() => ""));
  const code = answer?.error?.code;
  if (!response.ok || !answer || (code !== undefined && code !== "ok")) {
    throw tiktokError(response.status, answer, response.headers);
  }
  return answer.data ?? {};
}

/**
 * The answer's JSON, with the post ids TikTok writes as bare 64-bit integers read as strings: as
 * JavaScript numbers their last digits would be lost.
 */
function parseEnvelope(text: string): Envelope | null {
  const safe = text.replace(
    /("publicaly_available_post_id"\s*:\s*\[)([^\]]*)\]/g,
    (_all, head: string, ids: string) =>
      `${head}${ids
        .split(",")
        .map((id) => (/^\s*\d+\s*$/.test(id) ? `"${id.trim()}"` : id))
        .join(",")}]`,
  );
  try {
    return JSON.parse(safe) as Envelope;
  } catch {
    return null;
  }
}
