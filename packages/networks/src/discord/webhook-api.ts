import { NetworkError } from "@socialpub/core";
import { describeFetchFailure } from "../common/fetch-failure.ts";
import type { WaitGate } from "../common/wait-gate.ts";
import { discordError } from "./errors.ts";
import type { WebhookRef } from "./webhook-url.ts";

/*
 * The one place that talks HTTP to Discord's webhook API. The webhook's token is in every URL, so no
 * URL, and no low-level error that may carry one, leaves this file. Discord's rate limits are read from
 * every answer: a bucket that has no requests left (X-RateLimit-Remaining: 0) closes the webhook's gate
 * until X-RateLimit-Reset-After; a 429 closes it (or, when global, every webhook's) for retry_after.
 */

export interface WebhookApiConfig {
  /** https://discord.com, or a compatible server (tests: the local fake). */
  apiUrl: string;
  fetch: typeof fetch;
}

const GLOBAL = "global";
const gateKey = (webhook: WebhookRef) => `webhook:${webhook.id}`;

interface CallOptions {
  method: "GET" | "POST";
  /** Query string, with its "?". */
  query?: string;
  body?: FormData | Record<string, unknown>;
  signal: AbortSignal;
  /** True for requests that post: without an answer, the message may exist (`unknown`). */
  sends: boolean;
}

export async function callWebhook(
  config: WebhookApiConfig,
  gate: WaitGate,
  webhook: WebhookRef,
  options: CallOptions,
): Promise<unknown> {
  const wait = await gate.pass([GLOBAL, gateKey(webhook)], options.signal);
  if (wait > 0) {
    throw new NetworkError(
      "discord",
      "retry",
      `Discord's rate limit for this webhook has not reset yet; try again in ${Math.ceil(wait / 1000)} s.`,
      { retryAfterMs: wait },
    );
  }
  const url = `${config.apiUrl}/api/v10/webhooks/${webhook.id}/${webhook.token}${options.query ?? ""}`;
  const init: RequestInit = { method: options.method, signal: options.signal };
  if (options.body instanceof FormData) init.body = options.body;
  else if (options.body) {
    init.body = JSON.stringify(options.body);
    init.headers = { "content-type": "application/json" };
  }
  if (options.signal.aborted) {
    throw new NetworkError("discord", "retry", "The request to Discord was cancelled before it was sent.");
  }
  let response: Response;
  let text: string;
  try {
    response = await config.fetch(url, init);
    text = await response.text();
  } catch (error) {
    const failure = describeFetchFailure(error, options.signal);
    if (failure.notSent || !options.sends) {
      throw new NetworkError("discord", "retry", `Discord ${failure.reason}; try again later.`);
    }
    throw new NetworkError(
      "discord",
      "unknown",
      `Discord ${failure.reason} after the message was sent, so it may have been posted: check the channel before posting again.`,
    );
  }
  const body = parseJson(text);
  readBucket(gate, webhook, response.headers);
  if (response.status === 429) throw rateLimited(gate, webhook, response.headers, body);
  if (response.ok) {
    if (response.status === 204 || body !== null) return body;
    throw new NetworkError(
      "discord",
      options.sends ? "unknown" : "retry",
      `Discord answered ${response.status} without the message it made: check the channel before posting again.`,
      { status: response.status },
    );
  }
  throw discordError(response.status, body as Record<string, unknown> | null);
}

/** An exhausted bucket closes the webhook's gate until Discord says it resets. */
function readBucket(gate: WaitGate, webhook: WebhookRef, headers: Headers): void {
  const remaining = headers.get("x-ratelimit-remaining");
  const resetAfter = Number(headers.get("x-ratelimit-reset-after"));
  if (remaining === "0" && Number.isFinite(resetAfter) && resetAfter > 0) {
    gate.close(gateKey(webhook), Math.ceil(resetAfter * 1000));
  }
}

/** A wait in seconds Discord may have said: a number that is finite and not negative, else null. */
function secondsOf(value: unknown): number | null {
  const seconds = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

/**
 * A 429: the wait is the body's retry_after, else the Retry-After header, else 1 s, whichever first
 * is a sensible number of seconds (a negative or missing one is passed over).
 */
function rateLimited(gate: WaitGate, webhook: WebhookRef, headers: Headers, body: unknown): NetworkError {
  const seconds =
    secondsOf((body as { retry_after?: unknown } | null)?.retry_after) ??
    secondsOf(headers.get("retry-after")) ??
    1;
  const ms = Math.ceil(seconds * 1000);
  const global =
    (body as { global?: unknown } | null)?.global === true || headers.get("x-ratelimit-global") === "true";
  gate.close(global ? GLOBAL : gateKey(webhook), ms);
  return new NetworkError(
    "discord",
    "retry",
    `Discord is rate-limiting ${global ? "this server's requests" : "this webhook"}; try again in ${(ms / 1000).toFixed(1)} s (Discord said: 429 You are being rate limited).`,
    { status: 429, retryAfterMs: ms },
  );
}

function parseJson(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
