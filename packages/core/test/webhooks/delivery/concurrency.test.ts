import { describe, expect, it, vi } from "vitest";
import { receiver, setup } from "./setup.ts";

/** A receiver whose answers wait until the test lets them go. */
async function heldReceiver() {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const hook = await receiver(async () => {
    await released;
    return { status: 200 };
  });
  return { hook, release };
}

describe("webhook delivery: one endpoint cannot hold up another", () => {
  it("a slow endpoint gets at most four attempts at once; another endpoint's events all arrive meanwhile", async () => {
    const { clock, subscribe, publish } = await setup();
    const slow = await heldReceiver();
    const fast = await receiver();
    await subscribe(slow.hook.url, ["post.published"]);
    await subscribe(fast.url, ["post.published"]);
    for (let i = 0; i < 6; i++) await publish(`post ${i}`);

    const running = clock.advance(0);
    await fast.waitFor(6);
    await slow.hook.waitFor(4);
    // Every fast delivery arrived while the slow endpoint still held its first four requests
    // unanswered, and it was sent no fifth.
    expect(fast.received).toHaveLength(6);
    expect(slow.hook.received).toHaveLength(4);
    slow.release();
    await running;
    expect(slow.hook.received).toHaveLength(6);
    expect(new Set(slow.hook.received.map((r) => r.headers["webhook-id"]))).toEqual(
      new Set(fast.received.map((r) => r.headers["webhook-id"])),
    );
  });

  it("while a slow endpoint's attempts are in flight, the timer is set for another endpoint's retry, not for the slow one's queue", async () => {
    const { clock, subscribe, publish, service } = await setup();
    const flaky = await receiver((_, i) => ({ status: i === 0 ? 500 : 200 }));
    await subscribe(flaky.url, ["post.published"]);
    await publish("first");
    const start = clock.now();
    await clock.advance(0);
    expect(flaky.received).toHaveLength(1);
    const slow = await heldReceiver();
    await subscribe(slow.hook.url, ["post.published"]);
    for (let i = 0; i < 5; i++) await publish(`post ${i}`);

    const running = clock.advance(0);
    await slow.hook.waitFor(4);
    await flaky.waitFor(6);
    // Four attempts hold the slow endpoint's slots and a fifth event waits for one; the worker waits
    // for them without spinning on that fifth, with its timer on the flaky endpoint's retry.
    await vi.waitFor(() => expect(service.deliveries.nextRunAt).toBe(start + 5_000));
    expect(slow.hook.received).toHaveLength(4);
    slow.release();
    await running;
    expect(slow.hook.received).toHaveLength(5);
    await clock.advance(5_000);
    expect(flaky.received).toHaveLength(7);
    expect(flaky.received[6]!.headers["webhook-id"]).toBe(flaky.received[0]!.headers["webhook-id"]);
  });

  it("attempts in flight across all endpoints stay within the global limit", async () => {
    const { clock, subscribe, publish } = await setup({
      webhookDelivery: { concurrency: 3, perEndpointConcurrency: 2 },
    });
    const a = await heldReceiver();
    const b = await heldReceiver();
    await subscribe(a.hook.url, ["post.published"]);
    await subscribe(b.hook.url, ["post.published"]);
    for (let i = 0; i < 3; i++) await publish(`post ${i}`);

    const running = clock.advance(0);
    // Oldest due first, two per endpoint at most, three in all: a, b, a.
    await Promise.all([a.hook.waitFor(2), b.hook.waitFor(1)]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(a.hook.received).toHaveLength(2);
    expect(b.hook.received).toHaveLength(1);
    a.release();
    b.release();
    await running;
    expect(a.hook.received).toHaveLength(3);
    expect(b.hook.received).toHaveLength(3);
  });
});
