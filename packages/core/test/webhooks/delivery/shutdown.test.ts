import { describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/logger.ts";
import { createService } from "../../../src/service/create-service.ts";
import { MemoryStore } from "../../../src/store/memory.ts";
import { FakeClock } from "../../../src/testing/index.ts";
import { LEASE_MARGIN_MS } from "../../../src/webhooks/delivery/worker.ts";
import { attemptsOf, receiver, setup } from "./setup.ts";

describe("webhook delivery: stopping", () => {
  it("close() waits for an attempt in flight and records its outcome", async () => {
    const { clock, subscribe, publish, service, store } = await setup();
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const order: string[] = [];
    const hook = await receiver(async () => {
      await answered;
      order.push("answered");
      return { status: 200 };
    });
    const { id } = await subscribe(hook.url, ["post.published"]);
    await publish();
    const running = clock.advance(0);
    await hook.waitFor(1);
    const closing = service.close().then(() => order.push("closed"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer();
    await Promise.all([closing, running]);
    expect(order).toEqual(["answered", "closed"]);
    expect(await attemptsOf(store, id)).toMatchObject([{ attempt: 1, response_status: 200 }]);
  });

  it("an attempt still in flight when the grace period ends is cut and left leased; after a restart it is delivered once its lease ends", async () => {
    const store = new MemoryStore();
    const { clock, subscribe, publish, service } = await setup({
      store,
      webhookDelivery: { shutdownGraceMs: 50, timeoutMs: 60_000 },
    });
    const hook = await receiver((_, i) => (i === 0 ? "hang" : { status: 200 }));
    const { id } = await subscribe(hook.url, ["post.published"]);
    await publish();
    const running = clock.advance(0);
    await hook.waitFor(1);
    await service.close();
    await running;
    expect(await attemptsOf(store, id)).toEqual([]);
    const leaseEnds = clock.now() + 60_000 + LEASE_MARGIN_MS;
    expect(await store.nextDeliveryAt()).toBe(leaseEnds);

    const restartedClock = new FakeClock(clock.now());
    const restarted = createService({
      store,
      clock: restartedClock,
      logger: silentLogger,
      allowPrivateWebhookUrls: true,
    });
    await restarted.start();
    try {
      await restartedClock.advance(leaseEnds - restartedClock.now() - 1);
      expect(hook.received).toHaveLength(1);
      await restartedClock.advance(1);
      expect(hook.received).toHaveLength(2);
      expect(hook.received[1]!.headers["webhook-id"]).toBe(hook.received[0]!.headers["webhook-id"]);
      expect(await attemptsOf(store, id)).toMatchObject([{ attempt: 1, response_status: 200 }]);
    } finally {
      await restarted.close();
    }
  });
});
