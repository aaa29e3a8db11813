import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../../src/store/memory.ts";
import { receiver, setup } from "./setup.ts";

/**
 * A memory store that counts its outbox reads, and can hold their answers until the test lets them go:
 * a held read has already looked, so it cannot see a write made while it is held.
 */
class CountingStore extends MemoryStore {
  reads = 0;
  private gate: Promise<void> | null = null;
  private open: () => void = () => {};

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.gate = null;
    this.open();
  }

  override async nextDeliveryAt(options?: { excludeWebhookIds?: readonly string[] }): Promise<number | null> {
    this.reads += 1;
    const gate = this.gate;
    const next = await super.nextDeliveryAt(options);
    if (gate) await gate;
    return next;
  }
}

describe("webhook delivery: posts that finish together", () => {
  it("share the outbox reads that wake the worker, and the read they share sees their events", async () => {
    const store = new CountingStore();
    const { clock, service, subscribe, publish } = await setup({ store });
    const hook = await receiver();
    await subscribe(hook.url, ["post.published"]);
    await clock.advance(0);

    // A read under way, which looked before the post below was written.
    store.hold();
    const readsBefore = store.reads;
    const first = service.deliveries.notify();
    // A write with events, and 29 more wake-ups, while that read is held: they share one read after it.
    const publishing = publish("written while a read was under way");
    const others = Array.from({ length: 29 }, () => service.deliveries.notify());
    await new Promise((resolve) => setImmediate(resolve));
    store.release();
    await Promise.all([first, publishing, ...others]);
    expect(store.reads - readsBefore).toBe(2);

    // That read saw the post's event: the worker's timer is set for now, and a run delivers it.
    expect(service.deliveries.nextRunAt).not.toBeNull();
    expect(service.deliveries.nextRunAt!).toBeLessThanOrEqual(clock.now());
    await clock.advance(0);
    await hook.waitFor(1);
    expect(JSON.parse(hook.received[0]!.body)).toMatchObject({ type: "post.published" });
  });
});
