import {
  CreatedWebhookEndpoint,
  DeliveryAttemptList,
  ResendResult,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEvent,
} from "../../contract/events.ts";
import {
  CreateWebhookBody,
  ListAttemptsQuery,
  TestWebhookBody,
  UpdateWebhookBody,
} from "../../contract/requests.ts";
import { DeleteResult } from "../../contract/resources.ts";
import { listWebhookAttempts, resendWebhookEvent } from "../handlers/webhook-deliveries.ts";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  openKeptWebhookAnswer,
  testWebhook,
  updateWebhook,
} from "../handlers/webhooks.ts";
import { type AnyRoute, defineRoute } from "../route.ts";
import { webhookEventIds, webhookId, webhookNotFound } from "./params.ts";

/** Webhook endpoints, their delivery attempts and resends. */
export const WEBHOOK_ROUTES: readonly AnyRoute[] = [
  defineRoute({
    method: "POST",
    path: "/webhooks",
    operationId: "createWebhook",
    tag: "Webhooks",
    summary: "Register an endpoint for events; the signing secret is shown only in this answer",
    auth: true,
    body: { schema: CreateWebhookBody },
    responses: {
      201: { description: "The endpoint with its secret.", schema: CreatedWebhookEndpoint },
      400: {
        description: "The URL is not http(s), resolves to a private address, or too many endpoints exist.",
      },
    },
    handler: createWebhook,
    replayKept: openKeptWebhookAnswer,
  }),
  defineRoute({
    method: "GET",
    path: "/webhooks",
    operationId: "listWebhooks",
    tag: "Webhooks",
    summary: "The account's webhook endpoints (without secrets)",
    auth: true,
    responses: { 200: { description: "The endpoints.", schema: WebhookEndpointList } },
    handler: listWebhooks,
  }),
  defineRoute({
    method: "GET",
    path: "/webhooks/{id}",
    operationId: "getWebhook",
    tag: "Webhooks",
    summary: "One webhook endpoint (without its secret)",
    auth: true,
    params: webhookId,
    responses: { 200: { description: "The endpoint.", schema: WebhookEndpoint }, 404: webhookNotFound },
    handler: getWebhook,
  }),
  defineRoute({
    method: "PATCH",
    path: "/webhooks/{id}",
    operationId: "updateWebhook",
    tag: "Webhooks",
    summary: "Change an endpoint's URL, events or status; re-enable one disabled after a 410 Gone",
    description:
      'Send any of url, events and status; the others stay as they are, and so does the secret. {"status": "enabled"} makes a disabled endpoint receive events again: the events written from then on (what it was owed when it was disabled stays dropped; resend an event to send it again).',
    auth: true,
    params: webhookId,
    body: { schema: UpdateWebhookBody },
    responses: {
      200: { description: "The endpoint as updated (without its secret).", schema: WebhookEndpoint },
      400: {
        description:
          "Nothing to change was sent, the URL is not http(s) or resolves to a private address, or events is empty or names an unknown type.",
      },
      404: webhookNotFound,
    },
    handler: updateWebhook,
  }),
  defineRoute({
    method: "DELETE",
    path: "/webhooks/{id}",
    operationId: "deleteWebhook",
    tag: "Webhooks",
    summary: "Delete a webhook endpoint; nothing more is sent to it",
    auth: true,
    params: webhookId,
    responses: { 200: { description: "Deleted.", schema: DeleteResult }, 404: webhookNotFound },
    handler: deleteWebhook,
  }),
  defineRoute({
    method: "POST",
    path: "/webhooks/{id}/test",
    operationId: "testWebhook",
    tag: "Webhooks",
    summary: "Queue a test event for this endpoint",
    auth: true,
    params: webhookId,
    body: { schema: TestWebhookBody, optional: true },
    responses: {
      202: { description: "The queued event.", schema: WebhookEvent },
      404: webhookNotFound,
      409: {
        description:
          'The endpoint is disabled (it answered 410 Gone, or was disabled with PATCH); enable it with PATCH /webhooks/{id} {"status": "enabled"}.',
      },
    },
    handler: testWebhook,
  }),
  defineRoute({
    method: "GET",
    path: "/webhooks/{id}/attempts",
    operationId: "listWebhookAttempts",
    tag: "Webhooks",
    summary: "The endpoint's delivery log: every attempt, newest first",
    description:
      "Each attempt with its event, time, response status (null when none came), duration, error and when the delivery was due next. limit and the Link header's cursor work as on GET /posts.",
    auth: true,
    params: webhookId,
    query: ListAttemptsQuery,
    responses: {
      200: {
        description: 'A page of attempts; `Link: <…>; rel="next"` when more exist.',
        schema: DeliveryAttemptList,
      },
      400: { description: "limit is not a positive integer, or cursor is not valid." },
      404: webhookNotFound,
    },
    handler: listWebhookAttempts,
  }),
  defineRoute({
    method: "POST",
    path: "/webhooks/{id}/events/{event_id}/resend",
    operationId: "resendWebhookEvent",
    tag: "Webhooks",
    summary: "Send one of the account's events to this endpoint again, now",
    description:
      "A new delivery of the same event (same webhook-id, so receivers can tell it is the same event), due at once and retried on the usual schedule.",
    auth: true,
    params: webhookEventIds,
    responses: {
      202: { description: "The delivery is queued.", schema: ResendResult },
      404: {
        description: "No such endpoint (`Webhook not found.`) or event (`Event not found.`) in the account.",
      },
      409: {
        description:
          'The endpoint is disabled (it answered 410 Gone, or was disabled with PATCH); enable it with PATCH /webhooks/{id} {"status": "enabled"}.',
      },
    },
    handler: resendWebhookEvent,
  }),
];
