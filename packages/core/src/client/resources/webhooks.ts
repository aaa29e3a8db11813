import type { z } from "zod";
import {
  CreatedWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEvent,
} from "../../contract/events.ts";
import type { CreateWebhookBody, TestWebhookBody } from "../../contract/requests.ts";
import { DeleteResult } from "../../contract/resources.ts";
import type { Requester, RequestOptions } from "../requester.ts";
import { resourcePath } from "./resource-path.ts";

export type CreateWebhookInput = z.input<typeof CreateWebhookBody>;
export type TestWebhookInput = z.input<typeof TestWebhookBody>;

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
}
