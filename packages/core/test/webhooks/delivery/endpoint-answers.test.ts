import { describe, expect, it } from "vitest";
import { attemptsOf, receiver, setup } from "./setup.ts";

describe("webhook delivery: what the endpoint answers", () => {
  it("any 2xx is delivered, once", async () => {
    const { clock, subscribe, publish, store } = await setup();
    const hook = await receiver((_, i) => ({ status: [200, 201, 202, 204][i] ?? 299 }));
    const { id } = await subscribe(hook.url, ["post.published"]);
    for (let i = 0; i < 5; i++) await publish(`post ${i}`);
    await clock.advance(0);
    await clock.advance(3_600_000);
    expect(hook.received).toHaveLength(5);
    const attempts = await attemptsOf(store, id);
    expect(attempts.map((a) => [a.response_status, a.error, a.next_attempt_at])).toEqual(
      [200, 201, 202, 204, 299].map(() => [expect.any(Number), null, null]),
    );
  });

  it("410 Gone disables the endpoint: what it was still owed stops, new events skip it, other endpoints go on", async () => {
    const { clock, subscribe, publish, call, store } = await setup();
    const gone = await receiver(() => ({ status: 500 }));
    const other = await receiver();
    const endpoint = await subscribe(gone.url, ["post.published"]);
    await subscribe(other.url, ["post.published"]);
    await publish("first");
    await clock.advance(0);
    expect(gone.received).toHaveLength(1);
    // The first event waits for its retry in 5 s; the endpoint now says it is gone for good.
    gone.respond = () => ({ status: 410 });
    await publish("second");
    await clock.advance(0);
    expect(gone.received).toHaveLength(2);
    expect((await call("GET", `/webhooks/${endpoint.id}`)).body.status).toBe("disabled");
    await publish("third");
    await clock.advance(24 * 3_600_000);
    expect(gone.received).toHaveLength(2);
    expect(other.received).toHaveLength(3);
    const attempts = await attemptsOf(store, endpoint.id);
    expect(attempts.map((a) => a.response_status)).toEqual([500, 410]);
    expect(attempts[1]!.error).toMatch(/410 Gone/);
    expect(await store.nextDeliveryAt()).toBeNull();
  });

  it("redirects are not followed: a 3xx is a failed attempt, retried on the schedule", async () => {
    const { clock, subscribe, publish, store } = await setup();
    const target = await receiver();
    const hook = await receiver((_, i) =>
      i === 0 ? { status: 307, headers: { location: target.url } } : { status: 204 },
    );
    const { id } = await subscribe(hook.url, ["post.published"]);
    await publish();
    await clock.advance(0);
    expect(target.received).toHaveLength(0);
    const [first] = await attemptsOf(store, id);
    expect(first).toMatchObject({
      response_status: 307,
      error: "the endpoint answered 307; redirects are not followed",
      next_attempt_at: clock.now() + 5_000,
    });
    await clock.advance(5_000);
    expect(hook.received).toHaveLength(2);
    expect(target.received).toHaveLength(0);
  });

  it("a 429 or 503 with Retry-After in seconds waits that long when it is later than the schedule", async () => {
    for (const status of [429, 503]) {
      const { clock, subscribe, publish } = await setup();
      const hook = await receiver((_, i) =>
        i === 0 ? { status, headers: { "retry-after": "120" } } : { status: 200 },
      );
      await subscribe(hook.url, ["post.published"]);
      await publish();
      await clock.advance(0);
      await clock.advance(119_999);
      expect(hook.received, `${status}`).toHaveLength(1);
      await clock.advance(1);
      expect(hook.received, `${status}`).toHaveLength(2);
    }
  });

  it("Retry-After as an HTTP date is honoured too; one sooner than the schedule leaves the schedule", async () => {
    const { clock, subscribe, publish, store } = await setup();
    const inAnHour = () => new Date(clock.now() + 3_600_000).toUTCString();
    const hook = await receiver((_, i) =>
      i === 0
        ? { status: 503, headers: { "retry-after": inAnHour() } }
        : i === 1
          ? { status: 429, headers: { "retry-after": "1" } }
          : { status: 200 },
    );
    const { id } = await subscribe(hook.url, ["post.published"]);
    await publish();
    const start = clock.now();
    await clock.advance(0);
    await clock.advance(3_600_000);
    await clock.advance(5 * 60_000);
    const attempts = await attemptsOf(store, id);
    expect(attempts.map((a) => a.at - start)).toEqual([0, 3_600_000, 3_600_000 + 5 * 60_000]);
  });

  it("Retry-After on other statuses is ignored", async () => {
    const { clock, subscribe, publish } = await setup();
    const hook = await receiver((_, i) =>
      i === 0 ? { status: 500, headers: { "retry-after": "3600" } } : { status: 200 },
    );
    await subscribe(hook.url, ["post.published"]);
    await publish();
    await clock.advance(0);
    await clock.advance(5_000);
    expect(hook.received).toHaveLength(2);
  });

  it("an endpoint that does not answer within the timeout is a failed attempt (no status), retried", async () => {
    const { clock, subscribe, publish, store } = await setup({ webhookDelivery: { timeoutMs: 200 } });
    const hook = await receiver((_, i) => (i === 0 ? "hang" : { status: 200 }));
    const { id } = await subscribe(hook.url, ["post.published"]);
    await publish();
    await clock.advance(0);
    const [first] = await attemptsOf(store, id);
    expect(first).toMatchObject({
      response_status: null,
      error: "no response within 0.2 s",
      next_attempt_at: clock.now() + 5_000,
    });
    await clock.advance(5_000);
    expect(hook.received).toHaveLength(2);
    expect((await attemptsOf(store, id)).at(-1)).toMatchObject({ attempt: 2, response_status: 200 });
  });

  it("a connection cut without an answer is a failed attempt that names what happened", async () => {
    const { clock, subscribe, publish, store } = await setup();
    const hook = await receiver(() => "drop");
    const { id } = await subscribe(hook.url, ["post.published"]);
    await publish();
    await clock.advance(0);
    const [first] = await attemptsOf(store, id);
    expect(first).toMatchObject({ response_status: null, error: expect.stringMatching(/^no response: \S/) });
  });
});
