import { onTestFinished } from "vitest";
import type { EventType } from "../../../src/contract/events.ts";
import { type Logger, silentLogger } from "../../../src/logger.ts";
import { createService, type ServiceOptions } from "../../../src/service/create-service.ts";
import { MemoryStore } from "../../../src/store/memory.ts";
import type { Store } from "../../../src/store/types.ts";
import { FakeClock, provisionUser, WebhookReceiver } from "../../../src/testing/index.ts";
import type { Respond } from "../../../src/testing/webhook-receiver.ts";

// biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field in the tests.
type ApiAnswer = { status: number; body: any };

export interface SetupOptions extends Partial<Omit<ServiceOptions, "store" | "clock">> {
  store?: Store;
  logger?: Logger;
}

/**
 * The service in-process on a fake clock, with private webhook URLs allowed (receivers listen on
 * 127.0.0.1) and no retry jitter unless a test asks for it. Closed when the test ends.
 */
export async function setup(options: SetupOptions = {}) {
  const store = options.store ?? new MemoryStore();
  const clock = new FakeClock();
  const { apiKey, user } = await provisionUser(store, {
    plan: "creator",
    accounts: ["x", "bluesky", "linkedin"],
    now: clock.now(),
  });
  const service = createService({
    logger: silentLogger,
    allowPrivateWebhookUrls: true,
    ...options,
    store,
    clock,
    webhookDelivery: { random: () => 0.5, ...options.webhookDelivery },
  });
  await service.start();
  onTestFinished(() => service.close());

  const call = async (method: string, path: string, body?: unknown): Promise<ApiAnswer> => {
    const res = await service.fetch(
      new Request(`http://localhost/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };

  /** Registers an endpoint and returns it with its secret. */
  const subscribe = async (url: string, events?: EventType[]): Promise<{ id: string; secret: string }> => {
    const res = await call("POST", "/webhooks", { url, ...(events && { events }) });
    if (res.status !== 201)
      throw new Error(`POST /webhooks answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };

  const publish = async (caption = "Hello", platforms = ["x"]) => {
    const res = await call("POST", "/posts", { caption, platforms });
    if (res.status !== 201)
      throw new Error(`POST /posts answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as { id: string };
  };

  return { store, clock, service, user, apiKey, call, subscribe, publish };
}

/** A receiver on port 0, closed when the test ends. */
export async function receiver(respond?: Respond): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start(respond);
  onTestFinished(() => r.close());
  return r;
}

/** The deliveries' attempts, oldest first, as the store records them. */
export async function attemptsOf(store: Store, webhookId: string) {
  return (await store.listAttempts(webhookId, { limit: 1000 })).reverse();
}
