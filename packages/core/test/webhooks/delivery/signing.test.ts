import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import { WebhookEvent } from "../../../src/contract/events.ts";
import { verifyWebhook } from "../../../src/webhooks/verify.ts";
import { receiver, setup } from "./setup.ts";

/** standardwebhooks checks the timestamp against Date.now(); the deliveries are signed on the fake clock. */
function verifyWithReference(secret: string, body: string, headers: Record<string, unknown>, now: number) {
  vi.useFakeTimers({ toFake: ["Date"], now });
  try {
    return new Webhook(secret).verify(body, headers as Record<string, string>);
  } finally {
    vi.useRealTimers();
  }
}

describe("webhook delivery: what is sent", () => {
  it("every delivery verifies with the standardwebhooks package and with verifyWebhook", async () => {
    const { clock, subscribe, publish } = await setup();
    const hook = await receiver();
    const { secret } = await subscribe(hook.url);
    await publish("One", ["x", "bluesky"]);
    await publish("Two", ["linkedin"]);
    await clock.advance(0);
    expect(hook.received).toHaveLength(3);
    for (const request of hook.received) {
      const headers = request.headers as Record<string, string>;
      const reference = verifyWithReference(secret, request.body, headers, clock.now());
      const ours = verifyWebhook(request.body, headers, secret, { now: clock.now() });
      expect(reference).toEqual(JSON.parse(request.body));
      expect(ours).toEqual(reference);
      expect(WebhookEvent.parse(ours).type).toBe("post.published");
    }
  });

  it("a POST of the envelope {id, type, created, data} as JSON, webhook-id = the event id, webhook-timestamp = the attempt's Unix seconds", async () => {
    const { clock, subscribe, publish, store, user } = await setup();
    const hook = await receiver();
    await subscribe(hook.url);
    await clock.advance(2_500);
    const post = await publish();
    await clock.advance(0);
    const [request] = hook.received;
    const [event] = await store.listEvents(user.id);
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/hooks");
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["user-agent"]).toBe("socialpub-webhooks/1");
    expect(request!.headers["webhook-id"]).toBe(event!.id);
    expect(request!.headers["webhook-timestamp"]).toBe(String(Math.floor(clock.now() / 1000)));
    expect(request!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(JSON.parse(request!.body)).toEqual({
      id: event!.id,
      type: "post.published",
      created: event!.created,
      data: event!.data,
    });
    expect(JSON.parse(request!.body).data.post_id).toBe(post.id);
  });

  it("a retry keeps the webhook-id and body but is signed afresh for its own time", async () => {
    const { clock, subscribe, publish } = await setup();
    const hook = await receiver((_, index) => ({ status: index === 0 ? 500 : 204 }));
    const { secret } = await subscribe(hook.url);
    await publish();
    await clock.advance(0);
    await clock.advance(5_000);
    const [first, second] = hook.received;
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(second!.body).toBe(first!.body);
    expect(Number(second!.headers["webhook-timestamp"])).toBe(
      Number(first!.headers["webhook-timestamp"]) + 5,
    );
    expect(second!.headers["webhook-signature"]).not.toBe(first!.headers["webhook-signature"]);
    expect(() => verifyWebhook(second!.body, second!.headers, secret, { now: clock.now() })).not.toThrow();
  });

  it("the secret and the signature never reach the log", async () => {
    const lines: string[] = [];
    const logger = {
      error: (f: object, m: string) => lines.push(JSON.stringify(f) + m),
      warn: (f: object, m: string) => lines.push(JSON.stringify(f) + m),
      info: (f: object, m: string) => lines.push(JSON.stringify(f) + m),
    };
    const { clock, subscribe, publish } = await setup({ logger });
    const hook = await receiver((_, index) => ({ status: index === 0 ? 503 : 200 }));
    const { id, secret } = await subscribe(hook.url);
    await publish();
    await clock.advance(0);
    await clock.advance(5_000);
    expect(hook.received).toHaveLength(2);
    const log = lines.join("\n");
    expect(log).toContain(id);
    expect(log).toContain(String(hook.received[0]!.headers["webhook-id"]));
    expect(log).not.toContain(secret);
    expect(log).not.toContain(secret.slice("whsec_".length));
    for (const request of hook.received) {
      const signature = String(request.headers["webhook-signature"]).slice(3);
      expect(log).not.toContain(signature);
    }
  });
});
