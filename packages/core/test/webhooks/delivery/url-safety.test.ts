import { describe, expect, it } from "vitest";
import type { WebhookTransport } from "../../../src/webhooks/delivery/transport.ts";
import { createWebhookTransport } from "../../../src/webhooks/delivery/transport.ts";
import { attemptsOf, receiver, setup } from "./setup.ts";

describe("webhook delivery: where a URL points is checked again for each attempt", () => {
  it("a host that now resolves to a private address is not sent to (DNS rebinding); once public again it is", async () => {
    let address = "93.184.215.14";
    const sent: string[] = [];
    const transport: WebhookTransport = async (url) => {
      sent.push(url);
      return new Response(null, { status: 204 });
    };
    const { clock, subscribe, publish, store } = await setup({
      allowPrivateWebhookUrls: false,
      lookupHost: async () => [address],
      webhookDelivery: { transport },
    });
    const { id } = await subscribe("https://hooks.example.com/in", ["post.published"]);
    address = "10.0.0.7";
    await publish();
    await clock.advance(0);
    expect(sent).toEqual([]);
    const [refused] = await attemptsOf(store, id);
    expect(refused).toMatchObject({
      response_status: null,
      error: expect.stringMatching(
        /^not sent: url points at hooks\.example\.com, a loopback, private or link-local/,
      ),
      next_attempt_at: clock.now() + 5_000,
    });
    address = "93.184.215.15";
    await clock.advance(5_000);
    expect(sent).toEqual(["https://hooks.example.com/in"]);
    expect((await attemptsOf(store, id)).at(-1)).toMatchObject({ attempt: 2, response_status: 204 });
  });

  it("the default transport will not connect to a name that resolves to a loopback address unless private addresses are allowed", async () => {
    const hook = await receiver();
    const url = hook.url.replace("127.0.0.1", "localhost");
    const init = () => ({
      method: "POST" as const,
      headers: { "content-type": "application/json" },
      body: "{}",
      redirect: "manual" as const,
      signal: AbortSignal.timeout(5_000),
    });
    const strict = createWebhookTransport({ allowPrivateAddresses: false });
    try {
      const error = await strict.send(url, init()).catch((err: Error) => err);
      expect(error).toBeInstanceOf(Error);
      expect(String((error as Error).cause)).toMatch(/not a public address/);
      expect(hook.received).toHaveLength(0);
    } finally {
      await strict.close();
    }
    const open = createWebhookTransport({ allowPrivateAddresses: true });
    try {
      expect((await open.send(url, init())).status).toBe(200);
      expect(hook.received).toHaveLength(1);
    } finally {
      await open.close();
    }
  });
});
