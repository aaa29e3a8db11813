import type { z } from "zod";
import { EVENT_TYPES, type EventType, type WebhookEndpoint } from "../../contract/events.ts";
import type { CreateWebhookBody, TestWebhookBody } from "../../contract/requests.ts";
import { newId } from "../../ids.ts";
import { generateWebhookSecret } from "../../keys.ts";
import type { NewEvent, WebhookRecord } from "../../store/types.ts";
import type { RequestContext } from "../context.ts";
import { badRequest, HttpError } from "../http-error.ts";
import { json } from "../responses.ts";
import { sampleEventData } from "../sandbox/sample-events.ts";
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
  await deps.store.createWebhook(webhook);
  return json(201, { ...toEndpoint(webhook), secret: webhook.secret });
}

export async function listWebhooks({ deps, caller }: RequestContext): Promise<Response> {
  return json(200, { data: (await deps.store.listWebhooks(caller.user.id)).map(toEndpoint) });
}

export async function getWebhook({ deps, caller, params }: RequestContext): Promise<Response> {
  const webhook = await deps.store.getWebhook(caller.user.id, params.id!);
  if (!webhook) throw notFound();
  return json(200, toEndpoint(webhook));
}

export async function deleteWebhook({ deps, caller, params }: RequestContext): Promise<Response> {
  if (!(await deps.store.deleteWebhook(caller.user.id, params.id!))) throw notFound();
  return json(200, { deleted: true, id: params.id! });
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
}: RequestContext<z.output<typeof TestWebhookBody>>): Promise<Response> {
  const webhook = await deps.store.getWebhook(caller.user.id, params.id!);
  if (!webhook) throw notFound();
  const now = deps.clock.now();
  const type = body.type ?? webhook.events[0] ?? "post.published";
  const event: NewEvent = {
    id: newId("evt", now),
    user_id: caller.user.id,
    type,
    created: Math.floor(now / 1000),
    data: sampleEventData(type, now),
    webhook_id: webhook.id,
  };
  await deps.store.appendEvents([event]);
  return json(202, { id: event.id, type: event.type, created: event.created, data: event.data });
}
