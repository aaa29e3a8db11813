import type { z } from "zod";
import {
  CreatedWebhookEndpoint,
  type DeliveryAttempt,
  DeliveryAttemptList,
  ResendResult,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEvent,
} from "../../contract/events.ts";
import type { CreateWebhookBody, TestWebhookBody, UpdateWebhookBody } from "../../contract/requests.ts";
import { DeleteResult } from "../../contract/resources.ts";
import { cursorOf, nextPageUrl, type Page } from "../pagination.ts";
import type { Requester, RequestOptions } from "../requester.ts";
import { resourcePath } from "./resource-path.ts";

export type CreateWebhookInput = z.input<typeof CreateWebhookBody>;
export type TestWebhookInput = z.input<typeof TestWebhookBody>;
export type UpdateWebhookInput = z.input<typeof UpdateWebhookBody>;

export interface ListAttemptsParams {
  /** Attempts per page: 1–100, default 20. */
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
}

const path = (id: string) => resourcePath("/webhooks", id);

export class WebhooksResource {
  readonly #send: Requester;

  constructor(send: Requester) {
    this.#send = send;
  }

  /** Subscribes a URL. The answer holds the signing `secret`: keep it, it is never shown again. */
  async create(body: CreateWebhookInput, options?: RequestOptions): Promise<CreatedWebhookEndpoint> {
    return (
      await this.#send({
        method: "POST",
        path: "/webhooks",
        json: body,
        schema: CreatedWebhookEndpoint,
        options,
      })
    ).data;
  }

  async list(options?: RequestOptions): Promise<{ data: WebhookEndpoint[] }> {
    return (await this.#send({ method: "GET", path: "/webhooks", schema: WebhookEndpointList, options }))
      .data;
  }

  async get(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (await this.#send({ method: "GET", path: path(id), schema: WebhookEndpoint, options })).data;
  }

  /**
   * Changes the endpoint's `url`, `events` or `status` (the secret stays). `{ status: "enabled" }`
   * re-enables an endpoint the service disabled after it answered 410 Gone.
   */
  async update(id: string, body: UpdateWebhookInput, options?: RequestOptions): Promise<WebhookEndpoint> {
    return (
      await this.#send({ method: "PATCH", path: path(id), json: body, schema: WebhookEndpoint, options })
    ).data;
  }

  async delete(id: string, options?: RequestOptions): Promise<DeleteResult> {
    return (await this.#send({ method: "DELETE", path: path(id), schema: DeleteResult, options })).data;
  }

  /** Sends a test event to the endpoint and returns the event that was queued. */
  async test(id: string, body: TestWebhookInput = {}, options?: RequestOptions): Promise<WebhookEvent> {
    return (
      await this.#send({
        method: "POST",
        path: `${path(id)}/test`,
        json: body,
        schema: WebhookEvent,
        options,
      })
    ).data;
  }

  /** One page of the endpoint's delivery log, newest attempt first. */
  async attempts(
    id: string,
    params: ListAttemptsParams = {},
    options?: RequestOptions,
  ): Promise<Page<DeliveryAttempt>> {
    const response = await this.#send({
      method: "GET",
      path: `${path(id)}/attempts`,
      query: { limit: params.limit, cursor: params.cursor },
      schema: DeliveryAttemptList,
      options,
    });
    return { data: response.data.data, nextCursor: cursorOf(nextPageUrl(response.headers, response.url)) };
  }

  /**
   * Delivers one of the user's events to the endpoint again, now, with the same `webhook-id`: receivers
   * that deduplicate on it treat it as the event they already have.
   */
  async resend(id: string, eventId: string, options?: RequestOptions): Promise<ResendResult> {
    return (
      await this.#send({
        method: "POST",
        path: `${resourcePath(`${path(id)}/events`, eventId)}/resend`,
        schema: ResendResult,
        options,
      })
    ).data;
  }
}
