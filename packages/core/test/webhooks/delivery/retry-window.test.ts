import { describe, expect, it } from "vitest";
import { RETRY_SCHEDULE_MS } from "../../../src/webhooks/delivery/schedule.ts";
import { verifyWebhook } from "../../../src/webhooks/verify.ts";
import { attemptsOf, receiver, setup } from "./setup.ts";

/** The waits between the eight attempts: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
const WAITS = RETRY_SCHEDULE_MS.slice(1);

describe("webhook delivery: the retry window", () => {
  for (const down of ["refuses connections", "answers 500"] as const) {
    it(`a receiver that ${down} through seven attempts gets every event on the eighth, each with its own stable webhook-id`, async () => {
      const { clock, subscribe, publish, store, user } = await setup();
      const hook = await receiver(() => ({ status: 500 }));
      const { id, secret } = await subscribe(hook.url, ["post.published"]);
      if (down === "refuses connections") await hook.down();
      await publish("Both", ["x", "bluesky"]);
      await publish("One", ["linkedin"]);
      const events = await store.listEvents(user.id);
      expect(events).toHaveLength(3);

      const start = clock.now();
      await clock.advance(0);
      for (const wait of WAITS.slice(0, -1)) await clock.advance(wait);
      expect(hook.received).toHaveLength(down === "answers 500" ? 21 : 0);
      hook.received.length = 0;
      hook.respond = () => ({ status: 200 });
      await hook.up();
      await clock.advance(WAITS.at(-1)!);

      // Each event exactly once, with its event id as webhook-id and a valid signature.
      const ids = hook.received.map((r) => r.headers["webhook-id"]);
      expect(ids.sort()).toEqual(events.map((e) => e.id).sort());
      for (const r of hook.received) {
        expect(verifyWebhook(r.body, r.headers, secret, { now: clock.now() }).id).toBe(
          r.headers["webhook-id"],
        );
      }
      const attempts = await attemptsOf(store, id);
      expect(attempts).toHaveLength(24);
      for (const event of events) {
        const mine = attempts.filter((a) => a.event_id === event.id);
        expect(mine.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        // No jitter in this test: the attempts fall exactly on the schedule.
        let at = start;
        for (const [i, a] of mine.entries()) {
          at += RETRY_SCHEDULE_MS[i]!;
          expect(a.at).toBe(at);
        }
        expect(mine.at(-1)).toMatchObject({ response_status: 200, error: null, next_attempt_at: null });
        for (const a of mine.slice(0, -1)) {
          if (down === "answers 500") expect(a).toMatchObject({ response_status: 500 });
          else
            expect(a).toMatchObject({ response_status: null, error: expect.stringMatching(/ECONNREFUSED/) });
        }
      }
      // Nothing more is owed.
      expect(await store.nextDeliveryAt()).toBeNull();
      await clock.advance(48 * 3_600_000);
      expect(hook.received).toHaveLength(3);
    });
  }

  it("after the eighth failed attempt the delivery is given up: nothing more is sent until a resend", async () => {
    const { clock, subscribe, publish, store, call } = await setup();
    const hook = await receiver(() => ({ status: 503 }));
    const { id } = await subscribe(hook.url, ["post.published"]);
    await publish();
    await clock.advance(0);
    for (const wait of WAITS) await clock.advance(wait);
    expect(hook.received).toHaveLength(8);
    const attempts = await attemptsOf(store, id);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(attempts.at(-1)).toMatchObject({ response_status: 503, next_attempt_at: null });
    await clock.advance(7 * 24 * 3_600_000);
    expect(hook.received).toHaveLength(8);

    hook.respond = () => ({ status: 200 });
    const eventId = String(hook.received[0]!.headers["webhook-id"]);
    expect((await call("POST", `/webhooks/${id}/events/${eventId}/resend`)).status).toBe(202);
    await clock.advance(0);
    expect(hook.received).toHaveLength(9);
    expect(hook.received[8]!.headers["webhook-id"]).toBe(eventId);
  });

  it("retries are spread by ±10% jitter from the injected random source", async () => {
    for (const r of [0, 0.999_999]) {
      const { clock, subscribe, publish, store } = await setup({ webhookDelivery: { random: () => r } });
      const hook = await receiver(() => ({ status: 500 }));
      const { id } = await subscribe(hook.url, ["post.published"]);
      await publish();
      await clock.advance(0);
      for (let i = 0; i < 4; i++) await clock.advance(Math.ceil(WAITS[i]! * 1.1));
      const attempts = await attemptsOf(store, id);
      expect(attempts).toHaveLength(5);
      for (let i = 1; i < attempts.length; i++) {
        expect(attempts[i]!.at - attempts[i - 1]!.at).toBe(Math.round(WAITS[i - 1]! * (0.9 + 0.2 * r)));
        expect(attempts[i - 1]!.next_attempt_at).toBe(attempts[i]!.at);
      }
    }
  });
});
