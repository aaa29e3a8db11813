import { randomBytes } from "node:crypto";
import { signWebhook } from "@socialpub/core";
import type { IDataObject } from "n8n-workflow";
import { afterEach, describe, expect, it } from "vitest";
import { SocialPublishTrigger } from "../nodes/SocialPublishTrigger/SocialPublishTrigger.node.ts";
import { hookContext, webhookContext } from "./support/n8n-context.mts";
import { type InProcessService, inProcessService } from "./support/service.mts";

const trigger = new SocialPublishTrigger();
const lifecycle = trigger.webhookMethods.default;
const WEBHOOK_URL = "https://n8n.example.com/webhook/7d1c8a2e-0000-4000-8000-00000000abcd/webhook";

describe("Social Publish Trigger: receiving a delivery", () => {
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const envelope = {
    id: "evt_01",
    type: "post.published",
    created: Math.floor(Date.now() / 1000),
    data: {
      post_id: "post_1",
      platform: "x",
      status: "published",
      permalink: "https://x.example/1",
      metrics: { reach: 0, likes: 0 },
    },
  };
  const rawBody = Buffer.from(JSON.stringify(envelope));

  function deliver(
    headers: Record<string, string>,
    options: { body?: Buffer; events?: string[]; stored?: IDataObject } = {},
  ) {
    const harness = webhookContext({
      http: undefined as never,
      credentials: { apiKey: "unused", baseUrl: "http://unused.test/api/v1" },
      events: options.events ?? ["post.published"],
      staticData: options.stored ?? { webhookId: "wh_1", webhookSecret: secret },
      rawBody: options.body ?? rawBody,
      headers,
    });
    return { ...harness, result: trigger.webhook.call(harness.context) };
  }

  it("starts the workflow with the event envelope when the signature is valid", async () => {
    const { result, response } = deliver(signWebhook(rawBody, secret));
    expect(await result).toEqual({ workflowData: [[{ json: envelope }]] });
    expect(response.statusCode).toBeUndefined();
  });

  it("answers 401 and starts nothing when the signature is wrong, and logs why without the secret", async () => {
    const { result, response, logs } = deliver(
      signWebhook(rawBody, `whsec_${randomBytes(32).toString("base64")}`),
    );
    expect(await result).toEqual({ noWebhookResponse: true });
    expect(response).toEqual({ statusCode: 401, body: { error: "Invalid webhook signature." } });
    expect(logs).toEqual([
      { level: "warn", message: "Social Publish Trigger refused a delivery: no webhook signature matches" },
    ]);
    expect(JSON.stringify(logs)).not.toContain(secret.slice(6));
  });

  it("answers 401 when the signature headers are missing", async () => {
    const { result, response } = deliver({ "content-type": "application/json" });
    expect(await result).toEqual({ noWebhookResponse: true });
    expect(response.statusCode).toBe(401);
  });

  it("answers 401 to a replay of a delivery older than 5 minutes", async () => {
    const old = signWebhook(rawBody, secret, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    const { response } = deliver(old);
    await Promise.resolve();
    expect(response.statusCode).toBe(401);
  });

  it("answers 401 when the body was changed after signing", async () => {
    const headers = signWebhook(rawBody, secret);
    const tampered = Buffer.from(
      JSON.stringify({ ...envelope, data: { ...envelope.data, post_id: "post_2" } }),
    );
    const { result, response } = deliver(headers, { body: tampered });
    expect(await result).toEqual({ noWebhookResponse: true });
    expect(response.statusCode).toBe(401);
  });

  it("answers 401 when it holds no secret (the subscription was never created by this trigger)", async () => {
    const { response } = deliver(signWebhook(rawBody, secret), { stored: {} });
    expect(response.statusCode).toBe(401);
  });

  it("acknowledges an event type it does not listen for without starting the workflow", async () => {
    const { result, response } = deliver(signWebhook(rawBody, secret), { events: ["post.failed"] });
    expect(await result).toEqual({ noWebhookResponse: true });
    expect(response).toEqual({ statusCode: 200, body: { received: true, ignored: "post.published" } });
  });

  it("answers 400 to a signed body that is not an event envelope", async () => {
    const body = Buffer.from("[1,2,3]");
    const { response } = deliver(signWebhook(body, secret, { id: "evt_x" }), { body });
    expect(response).toEqual({ statusCode: 400, body: { error: "The body is not an event envelope." } });
  });
});

describe("Social Publish Trigger: subscription lifecycle against the reference service", () => {
  let service: InProcessService;
  afterEach(async () => {
    await service?.close();
  });

  function hooks(
    staticData: IDataObject,
    events = ["post.published", "post.failed"],
    webhookUrl = WEBHOOK_URL,
  ) {
    return hookContext({
      http: service.http,
      credentials: service.credentials,
      webhookUrl,
      events,
      staticData,
    }).context;
  }

  async function subscriptions(): Promise<Array<{ id: string; url: string; events: string[] }>> {
    const response = await service.http.request(
      "socialPublishApi",
      { method: "GET", url: `${service.credentials.baseUrl}/webhooks`, json: true },
      service.credentials,
    );
    return (response as { data: Array<{ id: string; url: string; events: string[] }> }).data;
  }

  it("activation creates the subscription and keeps its id and secret in the node's static data", async () => {
    service = await inProcessService();
    const staticData: IDataObject = {};
    expect(await lifecycle.checkExists.call(hooks(staticData))).toBe(false);
    expect(await lifecycle.create.call(hooks(staticData))).toBe(true);
    expect(staticData).toEqual({
      webhookId: expect.stringMatching(/^wh_/),
      webhookSecret: expect.stringMatching(/^whsec_/),
    });
    expect(await subscriptions()).toEqual([
      expect.objectContaining({
        id: staticData.webhookId,
        url: WEBHOOK_URL,
        events: ["post.published", "post.failed"],
      }),
    ]);
    expect(await lifecycle.checkExists.call(hooks(staticData))).toBe(true);
  });

  it("checkExists answers false, forgets the subscription and logs a warning when it was deleted on the service", async () => {
    service = await inProcessService();
    const staticData: IDataObject = { webhookId: "wh_gone", webhookSecret: "whsec_AAAA" };
    const { context, logs } = hookContext({
      http: service.http,
      credentials: service.credentials,
      webhookUrl: WEBHOOK_URL,
      events: ["post.published"],
      staticData,
    });
    expect(await lifecycle.checkExists.call(context)).toBe(false);
    expect(staticData).toEqual({});
    expect(logs).toEqual([
      {
        level: "warn",
        message:
          "Social Publish Trigger: webhook endpoint wh_gone no longer exists on the service (it was deleted there); subscribing again",
      },
    ]);
  });

  it("checkExists replaces a subscription whose events no longer match the node", async () => {
    service = await inProcessService();
    const staticData: IDataObject = {};
    await lifecycle.create.call(hooks(staticData, ["post.published"]));
    expect(await lifecycle.checkExists.call(hooks(staticData, ["post.published", "post.deleted"]))).toBe(
      false,
    );
    expect(await subscriptions()).toEqual([]);
    await lifecycle.create.call(hooks(staticData, ["post.published", "post.deleted"]));
    expect((await subscriptions()).map((s) => s.events)).toEqual([["post.published", "post.deleted"]]);
  });

  it("checkExists replaces a subscription whose URL no longer matches the node", async () => {
    service = await inProcessService();
    const staticData: IDataObject = {};
    await lifecycle.create.call(hooks(staticData));
    const moved = "https://n8n.example.com/webhook/other/webhook";
    expect(await lifecycle.checkExists.call(hooks(staticData, undefined, moved))).toBe(false);
    expect(await subscriptions()).toEqual([]);
  });

  it("create removes a subscription left at the same URL whose secret was lost", async () => {
    service = await inProcessService();
    await lifecycle.create.call(hooks({}));
    const staticData: IDataObject = {};
    await lifecycle.create.call(hooks(staticData));
    expect((await subscriptions()).map((s) => s.id)).toEqual([staticData.webhookId]);
  });

  it("deactivation deletes the subscription and forgets it; a subscription already gone is fine", async () => {
    service = await inProcessService();
    const staticData: IDataObject = {};
    await lifecycle.create.call(hooks(staticData));
    expect(await lifecycle.delete.call(hooks(staticData))).toBe(true);
    expect(staticData).toEqual({});
    expect(await subscriptions()).toEqual([]);
    expect(await lifecycle.delete.call(hooks({ webhookId: "wh_gone", webhookSecret: "x" }))).toBe(true);
  });
});
