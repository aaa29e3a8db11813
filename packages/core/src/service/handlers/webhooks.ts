import type { z } from "zod";
import { EVENT_TYPES, type EventType, type WebhookEndpoint } from "../../contract/events.ts";
import type { CreateWebhookBody, TestWebhookBody, UpdateWebhookBody } from "../../contract/requests.ts";
import { newId } from "../../ids.ts";
import { generateWebhookSecret } from "../../keys.ts";
import { checkWebhookUrl } from "../../net/public-url.ts";
import { isPlainWebhookSecret, openWebhookSecret, sealWebhookSecret } from "../../secrets/webhook-secrets.ts";
import type { WebhookPatch, WebhookRecord } from "../../store/types.ts";
import type { Caller, RequestContext, ServiceDeps } from "../context.ts";
import { badRequest, HttpError } from "../http-error.ts";
import { json } from "../responses.ts";
import { sampleEvent } from "../sandbox/sample-events.ts";

/** Endpoints a user may register; more is almost always a leak in the caller's automation. */
export const MAX_WEBHOOKS_PER_USER = 20;

const notFound = () => new HttpError(404, "Webhook not found.");

/** What a request that would send to a disabled endpoint gets: 409, and how to enable it again. */
export const endpointDisabled = (id: string) =>
  new HttpError(
    409,
    `This webhook endpoint is disabled (it answered 410 Gone, or was disabled with PATCH), so nothing is sent to it; enable it again with PATCH /webhooks/${id} {"status": "enabled"}.`,
  );

/** The types asked for, in the contract's order, each once. */
function inContractOrder(events: readonly EventType[]): EventType[] {
  const wanted = new Set(events);
  return EVENT_TYPES.filter((t) => wanted.has(t));
}

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
  const id = newId("wh", now);
  const secret = generateWebhookSecret();
  const webhook: WebhookRecord = {
    id,
    user_id: caller.user.id,
    url,
    events: inContractOrder(body.events ?? EVENT_TYPES),
    secret: sealWebhookSecret(deps.publishing.keyring, { id, user_id: caller.user.id }, secret),
    status: "enabled",
    created_at: now,
  };
  const endpoint = toEndpoint(webhook);
  // The answer a retry replays is kept with the secret as the store keeps it (sealed), and opened when
  // replayed (openKeptWebhookAnswer), so the secret is never in the clear at rest.
  await deps.store.createWebhook(webhook, {
    idempotency: keptAnswer(201, { ...endpoint, secret: webhook.secret }),
  });
  return json(201, { ...endpoint, secret });
}

/**
 * The answer kept for a POST /webhooks with an Idempotency-Key, as replayed to its user: its secret
 * opened (one kept before secrets were sealed is replayed as it is).
 */
export function openKeptWebhookAnswer(deps: ServiceDeps, caller: Caller, kept: string): string {
  const answer = JSON.parse(kept) as { id: string; secret: string };
  if (isPlainWebhookSecret(answer.secret)) return kept;
  const endpoint = { id: answer.id, user_id: caller.user.id };
  const secret = openWebhookSecret(deps.publishing.keyring, endpoint, answer.secret);
  return JSON.stringify({ ...answer, secret });
}

export async function listWebhooks({ deps, caller }: RequestContext): Promise<Response> {
  return json(200, { data: (await deps.store.listWebhooks(caller.user.id)).map(toEndpoint) });
}

export async function getWebhook({ deps, caller, params }: RequestContext): Promise<Response> {
  const webhook = await deps.store.getWebhook(caller.user.id, params.id!);
  if (!webhook) throw notFound();
  return json(200, toEndpoint(webhook));
}

/**
 * PATCH /webhooks/{id}: changes the endpoint's URL (checked as at creation), events or status, and
 * answers it (without its secret, which stays the same). `{"status": "enabled"}` re-enables an endpoint
 * disabled after a 410 Gone; what it was owed when it was disabled stays dropped (resend it if needed).
 */
export async function updateWebhook({
  deps,
  caller,
  params,
  body,
}: RequestContext<z.output<typeof UpdateWebhookBody>>): Promise<Response> {
  if (body.url === undefined && body.events === undefined && body.status === undefined) {
    throw badRequest("Send at least one of url, events or status to change.");
  }
  // An unknown endpoint is 404 before its new URL is looked up.
  if (!(await deps.store.getWebhook(caller.user.id, params.id!))) throw notFound();
  const patch: WebhookPatch = {
    ...(body.url !== undefined && {
      url: await checkWebhookUrl(body.url, deps.webhooks.allowPrivateUrls, deps.webhooks.lookupHost),
    }),
    ...(body.events !== undefined && { events: inContractOrder(body.events) }),
    ...(body.status !== undefined && { status: body.status }),
  };
  const updated = await deps.store.updateWebhook(caller.user.id, params.id!, patch);
  if (!updated) throw notFound();
  return json(200, toEndpoint(updated));
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
 * type asked for (default: the endpoint's first subscribed type), and answers the event. A disabled
 * endpoint is sent nothing: 409.
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
  // It would be written and then dropped unsent: say so rather than answer 202.
  if (webhook.status === "disabled") throw endpointDisabled(webhook.id);
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
