import { checkWebhookUrl, type LookupHost } from "../../net/public-url.ts";
import type { CredentialKeyring } from "../../secrets/credential-keyring.ts";
import { openWebhookSecret } from "../../secrets/webhook-secrets.ts";
import type { DeliveryJob } from "../../store/types.ts";
import type { Clock } from "../../time/clock.ts";
import { signWebhook } from "../sign.ts";
import type { WebhookTransport } from "./transport.ts";

export const USER_AGENT = "socialpub-webhooks/1";

export interface SendContext {
  clock: Clock;
  transport: WebhookTransport;
  timeoutMs: number;
  allowPrivateUrls: boolean;
  lookupHost: LookupHost;
  /** Aborts the request when the service stops and its grace period is over. */
  shutdown: AbortSignal;
  /** Opens the endpoints' sealed signing secrets; null when the service has no secret key. */
  keyring: CredentialKeyring | null;
}

/** What one attempt came to, before deciding what happens next. */
export type SendResult =
  | {
      kind: "response";
      status: number;
      /** The Retry-After header, as sent. */
      retryAfter: string | null;
      durationMs: number;
    }
  | { kind: "no-response"; error: string; durationMs: number }
  /** The service stopped mid-request: nothing is recorded, and the lease brings the delivery back. */
  | { kind: "interrupted" };

/**
 * Makes one attempt: re-checks where the URL points (its DNS may have changed since the endpoint was
 * registered), then POSTs the envelope signed for this attempt's time. Never throws.
 */
export async function sendAttempt(job: DeliveryJob, ctx: SendContext): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  const { webhook, event } = job;
  if (!ctx.allowPrivateUrls) {
    try {
      await checkWebhookUrl(webhook.url, false, ctx.lookupHost);
    } catch (err) {
      return { kind: "no-response", error: `not sent: ${messageOf(err)}`, durationMs: elapsed() };
    }
  }
  let secret: string;
  try {
    secret = openWebhookSecret(ctx.keyring, webhook, webhook.secret);
  } catch (err) {
    return { kind: "no-response", error: `not sent: ${messageOf(err)}`, durationMs: elapsed() };
  }
  const body = JSON.stringify({ id: event.id, type: event.type, created: event.created, data: event.data });
  const headers = {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    ...signWebhook(body, secret, {
      id: event.id,
      timestamp: Math.floor(ctx.clock.now() / 1000),
    }),
  };
  // Made for this attempt and released when it ends. AbortSignal.timeout's timer cannot be cleared, and
  // AbortSignal.any ties each attempt to the long-lived shutdown signal: at a thousand attempts a second
  // they kept every attempt's signals, timers and closures alive for the whole timeout.
  const attempt = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
  }, ctx.timeoutMs);
  timer.unref();
  const onShutdown = () => attempt.abort(ctx.shutdown.reason);
  if (ctx.shutdown.aborted) onShutdown();
  else ctx.shutdown.addEventListener("abort", onShutdown, { once: true });
  try {
    const response = await ctx.transport(webhook.url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: attempt.signal,
    });
    // The answer's body is not used; dropping it frees the connection.
    await response.body?.cancel().catch(() => {});
    return {
      kind: "response",
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      durationMs: elapsed(),
    };
  } catch (err) {
    if (ctx.shutdown.aborted) return { kind: "interrupted" };
    const error = timedOut
      ? `no response within ${ctx.timeoutMs / 1000} s`
      : `no response: ${describeNetworkError(err)}`;
    return { kind: "no-response", error, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
    ctx.shutdown.removeEventListener("abort", onShutdown);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** fetch reports "fetch failed"; the reason (ECONNREFUSED, a TLS error, …) is in its cause. */
function describeNetworkError(err: unknown): string {
  let cause: unknown = err;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  return messageOf(cause).slice(0, 300);
}
