import type { z } from "zod";
import { EVENT_TYPES, type EventType, type WebhookEndpoint } from "../../contract/events.ts";
import type { CreateWebhookBody, TestWebhookBody } from "../../contract/requests.ts";
import { newId } from "../../ids.ts";
import { generateWebhookSecret } from "../../keys.ts";
import type { WebhookRecord } from "../../store/types.ts";
import type { RequestContext } from "../context.ts";
import { badRequest, HttpError } from "../http-error.ts";
import { json } from "../responses.ts";
import { sampleEvent } from "../sandbox/sample-events.ts";
import { checkWebhookUrl } from "../webhook-url.ts";

/** Endpoints a user may register; more is almost always a leak in the caller's automation. */
export const MAX_WEBHOOKS_PER_USER = 20;

const notFound = () => new HttpError(404, "Webhook not found.");

function toEndpoint(w: WebhookRecord): WebhookEndpoint {
  return { id: w.id, url: w.url, events: w.events, status: w.status, created_at: w.created_at };
}

/** POST /webhooks: registers an endpoint; the secret is in this answer and never again. */
export async function createWebhook({
  deps,
  caller,
  body,
  keptAnswer,
}: RequestContext<z.output<typeof CreateWebhookBody>>): Promise<Response> {
  const url = await checkWebhookUrl(body.url, deps.webhooks.allowPrivateUrls, deps.webhooks.lookupHost);
  const existing = await deps.store.listWebhooks(caller.user.id);
  if (existing.length >= MAX_WEBHOOKS_PER_USER) {
    throw badRequest(`At most ${MAX_WEBHOOKS_PER_USER} webhook endpoints per account; delete one first.`);
  }
  const now = deps.clock.now();
  const wanted = new Set<EventType>(body.events ?? EVENT_TYPES);
  const webhook: WebhookRecord = {
    id: newId("wh", now),
    user_id: caller.user.id,
    url,
    // In the contract's order, each once.
    events: EVENT_TYPES.filter((t) => wanted.has(t)),
    secret: generateWebhookSecret(),
    status: "enabled",
    created_at: now,
  };
  const answer = { ...toEndpoint(webhook), secret: webhook.secret };
  await deps.store.createWebhook(webhook, { idempotency: keptAnswer(201, answer) });
  return json(201, answer);
}

export async function listWebhooks({ deps, caller }: RequestContext): Promise<Response> {
  return json(200, { data: (await deps.store.listWebhooks(caller.user.id)).map(toEndpoint) });
}

export async function getWebhook({ deps, caller, params }: RequestContext): Promise<Response> {
  const webhook = await deps.store.getWebhook(caller.user.id, params.id!);
  if (!webhook) throw notFound();
  return json(200, toEndpoint(webhook));
}

export async function deleteWebhook({ deps, caller, params, keptAnswer }: RequestContext): Promise<Response> {
  const answer = { deleted: true, id: params.id! };
  const removed = await deps.store.deleteWebhook(caller.user.id, params.id!, {
    idempotency: keptAnswer(200, answer),
  });
  if (!removed) throw notFound();
  return json(200, answer);
}

/**
 * POST /webhooks/{id}/test: queues a test event for this endpoint only (202), with sample data of the
 * type asked for (default: the endpoint's first subscribed type), and answers the event.
 */
export async function testWebhook({
  deps,
  caller,
  params,
  body,
  keptAnswer,
}: RequestContext<z.output<typeof TestWebhookBody>>): Promise<Response> {
  const webhook = await deps.store.getWebhook(caller.user.id, params.id!);
  if (!webhook) throw notFound();
  const now = deps.clock.now();
  const type = body.type ?? webhook.events[0] ?? "post.published";
  const event = sampleEvent(type, now, {
    id: newId("evt", now),
    user_id: caller.user.id,
    created: Math.floor(now / 1000),
    webhook_id: webhook.id,
  });
  const answer = { id: event.id, type: event.type, created: event.created, data: event.data };
  await deps.store.appendEvents([event], { idempotency: keptAnswer(202, answer) });
  return json(202, answer);
}
