import type { DeliveryAttempt } from "../../contract/events.ts";
import type { ListAttemptsQuery } from "../../contract/requests.ts";
import type { AttemptLogEntry, DeliveryRecord } from "../../store/types.ts";
import type { RequestContext } from "../context.ts";
import { HttpError } from "../http-error.ts";
import { json } from "../responses.ts";
import { decodeCursor, encodeCursor } from "./read-posts.ts";
import { endpointDisabled } from "./webhooks.ts";

const webhookNotFound = () => new HttpError(404, "Webhook not found.");

function toDeliveryAttempt(a: AttemptLogEntry): DeliveryAttempt {
  return {
    id: a.id,
    delivery_id: a.delivery_id,
    event_id: a.event_id,
    event_type: a.event_type,
    attempt: a.attempt,
    at: a.at,
    response_status: a.response_status,
    duration_ms: a.duration_ms,
    error: a.error,
    next_attempt_at: a.next_attempt_at,
  };
}

/**
 * GET /webhooks/{id}/attempts: the endpoint's delivery log, newest first; `limit` and the `Link`
 * header's cursor work as on GET /posts.
 */
export async function listWebhookAttempts({
  deps,
  caller,
  params,
  query,
  url,
}: RequestContext<unknown, ListAttemptsQuery>): Promise<Response> {
  const webhook = await deps.store.getWebhook(caller.user.id, params.id!);
  if (!webhook) throw webhookNotFound();
  const { limit } = query;
  const beforeId = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const page = await deps.store.listAttempts(webhook.id, { limit: limit + 1, beforeId });
  const attempts = page.slice(0, limit);
  const headers: Record<string, string> = {};
  const last = attempts.at(-1);
  if (page.length > limit && last) {
    const next = new URL(url);
    next.searchParams.set("cursor", encodeCursor(last.id));
    headers.link = `<${next.pathname}${next.search}>; rel="next"`;
  }
  return json(200, { data: attempts.map(toDeliveryAttempt) }, headers);
}

/**
 * POST /webhooks/{id}/events/{event_id}/resend: owes one of the user's events to the endpoint again,
 * as a new delivery due now (the same event, so the same webhook-id) — 202. A disabled endpoint gets
 * nothing: 409.
 */
export async function resendWebhookEvent({
  deps,
  caller,
  params,
  keptAnswer,
}: RequestContext): Promise<Response> {
  const webhook = await deps.store.getWebhook(caller.user.id, params.id!);
  if (!webhook) throw webhookNotFound();
  if (webhook.status === "disabled") throw endpointDisabled(webhook.id);
  const answerFor = (delivery: DeliveryRecord) => ({
    resent: true,
    event_id: delivery.event_id,
    delivery_id: delivery.id,
  });
  const delivery = await deps.store.resendEvent(webhook.id, params.event_id!, deps.clock.now(), (d) => ({
    idempotency: keptAnswer(202, answerFor(d)),
  }));
  if (!delivery) throw new HttpError(404, "Event not found.");
  return json(202, answerFor(delivery));
}
