import { provisionUser, RETRY_SCHEDULE_MS, type Store, verifyWebhook } from "@socialpub/core";
import { FakeClock, type Respond, WebhookReceiver } from "@socialpub/core/testing";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../src/logging.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { api, type ServerProcess, startServerProcess, TEST_KEY } from "./support/cli-process.ts";
import { tempDir } from "./support/temp-dir.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(respond?: Respond) {
  const r = await WebhookReceiver.start(respond);
  cleanups.push(() => r.close());
  return r;
}

/** The server in-process on a SQLite file and a fake clock, as a restart would find it. */
async function serve(path: string, clock: FakeClock, delivery = {}) {
  const store = openSqliteStore(path);
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    store,
    clock,
    logger: createLogger({ level: "silent" }),
    service: { allowPrivateWebhookUrls: true, webhookDelivery: { random: () => 0.5, ...delivery } },
  });
  const stop = async () => {
    await server.close();
    await store.close();
  };
  cleanups.push(stop);
  return { server, store, stop };
}

function call(server: RunningServer, key: string, method: string, path: string, body?: unknown) {
  return api(server, key, method, path, body);
}

async function attemptsByEvent(store: Store, webhookId: string): Promise<Map<string, number[]>> {
  const byEvent = new Map<string, number[]>();
  for (const a of (await store.listAttempts(webhookId, { limit: 1000 })).reverse()) {
    byEvent.set(a.event_id, [...(byEvent.get(a.event_id) ?? []), a.attempt]);
  }
  return byEvent;
}

describe("webhook delivery in the server", () => {
  it("a restart in the middle of the retry window loses no event and invents none: each arrives once, with its webhook-id, after eight attempts in all", async () => {
    const dir = tempDir();
    cleanups.push(dir.remove);
    const path = dir.file("webhooks.db");
    const clock = new FakeClock();
    const hook = await receiver();
    await hook.down();

    let running = await serve(path, clock);
    const { apiKey, user } = await provisionUser(running.store, {
      plan: "creator",
      accounts: ["x", "bluesky"],
      now: clock.now(),
    });
    const endpoint = (
      await call(running.server, apiKey, "POST", "/webhooks", { url: hook.url, events: ["post.published"] })
    ).body;
    await call(running.server, apiKey, "POST", "/posts", { caption: "Both", platforms: ["x", "bluesky"] });
    // Attempts 1 to 4 are refused.
    await clock.advance(0);
    for (const wait of RETRY_SCHEDULE_MS.slice(1, 4)) await clock.advance(wait);
    // One more event, written just before the server stops: never attempted yet.
    await call(running.server, apiKey, "POST", "/posts", { caption: "Last", platforms: ["x"] });
    await running.stop();

    const restartClock = new FakeClock(clock.now());
    running = await serve(path, restartClock);
    await restartClock.advance(0);
    // Attempts 5 to 7 of the first two events are refused too; then the receiver is back.
    for (const wait of RETRY_SCHEDULE_MS.slice(4, 7)) await restartClock.advance(wait);
    await hook.up();
    await restartClock.advance(RETRY_SCHEDULE_MS[7]!);
    await restartClock.advance(RETRY_SCHEDULE_MS[1]!);

    const events = (await running.store.listEvents(user.id)).filter((e) => e.type === "post.published");
    expect(events).toHaveLength(3);
    expect(hook.received.map((r) => r.headers["webhook-id"]).sort()).toEqual(events.map((e) => e.id).sort());
    const byEvent = await attemptsByEvent(running.store, endpoint.id);
    expect(byEvent.get(events[0]!.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(byEvent.get(events[1]!.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // The last event was first attempted after the restart, on its own schedule from there.
    expect(byEvent.get(events[2]!.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await running.store.nextDeliveryAt()).toBeNull();
  });

  it("an attempt cut by shutdown is sent again after the restart, once its lease ends; the log shows one attempt", async () => {
    const dir = tempDir();
    cleanups.push(dir.remove);
    const path = dir.file("lease.db");
    const clock = new FakeClock();
    const hook = await receiver((_, i) => (i === 0 ? "hang" : { status: 200 }));
    let running = await serve(path, clock, { shutdownGraceMs: 50 });
    const { apiKey } = await provisionUser(running.store, {
      plan: "creator",
      accounts: ["x"],
      now: clock.now(),
    });
    const endpoint = (
      await call(running.server, apiKey, "POST", "/webhooks", { url: hook.url, events: ["post.published"] })
    ).body;
    await call(running.server, apiKey, "POST", "/posts", { caption: "Cut", platforms: ["x"] });
    const firstRun = clock.advance(0);
    await hook.waitFor(1);
    await running.stop();
    await firstRun;

    const restartClock = new FakeClock(clock.now());
    running = await serve(path, restartClock);
    await restartClock.advance(0);
    expect(hook.received).toHaveLength(1);
    await restartClock.advance(15_000 + 30_000);
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1]!.headers["webhook-id"]).toBe(hook.received[0]!.headers["webhook-id"]);
    const attempts = await running.store.listAttempts(endpoint.id, { limit: 10 });
    expect(attempts).toMatchObject([{ attempt: 1, response_status: 200 }]);
  });
});

describe("webhook delivery by the socialpub-server process", () => {
  let server: ServerProcess | null = null;
  afterEach(async () => {
    await server?.stop("SIGKILL");
    server = null;
  });

  it("start --dev delivers to a receiver on 127.0.0.1 at once, signed as standardwebhooks verifies; SIGTERM waits for an attempt in flight", async () => {
    const dir = tempDir();
    cleanups.push(dir.remove);
    const db = dir.file("process.db");
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const hook = await receiver(async (_, i) => {
      if (i === 1) await answered;
      return { status: 200 };
    });
    server = await startServerProcess(["--dev", "--dev-key", TEST_KEY, "--db", db, "--log-level", "warn"]);
    expect(server.output()).toContain("Webhook URLs on loopback and private addresses are accepted");
    const endpoint = (
      await api(server, TEST_KEY, "POST", "/webhooks", { url: hook.url, events: ["post.published"] })
    ).body;

    await api(server, TEST_KEY, "POST", "/posts", { caption: "Live", platforms: ["x"] });
    await hook.waitFor(1);
    const [first] = hook.received;
    const event = new Webhook(endpoint.secret).verify(first!.body, first!.headers as Record<string, string>);
    expect(verifyWebhook(first!.body, first!.headers, endpoint.secret)).toEqual(event);
    expect(event).toMatchObject({ type: "post.published", data: { platform: "x", status: "published" } });

    await api(server, TEST_KEY, "POST", "/posts", { caption: "In flight", platforms: ["x"] });
    await hook.waitFor(2);
    const exited = server.stop("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer();
    expect(await exited).toBe(0);
    server = null;

    const store = openSqliteStore(db);
    try {
      const attempts = await store.listAttempts(endpoint.id, { limit: 10 });
      expect(attempts.map((a) => [a.event_id, a.response_status])).toEqual([
        [hook.received[1]!.headers["webhook-id"], 200],
        [hook.received[0]!.headers["webhook-id"], 200],
      ]);
    } finally {
      await store.close();
    }
  });
});
