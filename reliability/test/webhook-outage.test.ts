import { type NewEvent, provisionUser, RETRY_SCHEDULE_MS, type Store, verifyWebhook } from "@socialpub/core";
import { FakeClock, SAMPLE_PNG, WebhookReceiver } from "@socialpub/core/testing";
import { createLogger, type RunningServer, startServer } from "@socialpub/server";
import { afterEach, describe, expect, it } from "vitest";
import { useFigures } from "../support/figures.ts";
import { call } from "../support/http.ts";
import { newTestDatabase, openTestStore, STORE_NAME } from "../support/store.ts";

const figures = useFigures("webhook receivers down across restarts");

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Running {
  server: RunningServer;
  store: Store;
  clock: FakeClock;
  stop(): Promise<void>;
}

/** The server in-process on its database, with a fake clock that starts where the last one stopped. */
async function serve(db: string, now: number): Promise<Running> {
  const store = await openTestStore(db);
  const clock = new FakeClock(now);
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    store,
    clock,
    logger: createLogger({ level: "silent" }),
    service: { allowPrivateWebhookUrls: true, rateLimit: false, webhookDelivery: { random: () => 0.5 } },
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.close();
    await store.close();
  };
  cleanups.push(stop);
  return { server, store, clock, stop };
}

/** Attempt numbers per event id in an endpoint's delivery log (a resend starts again at 1). */
async function attemptsByEvent(store: Store, webhookId: string): Promise<Map<string, number[]>> {
  const byEvent = new Map<string, number[]>();
  for (const a of (await store.listAttempts(webhookId, { limit: 100_000 })).reverse()) {
    byEvent.set(a.event_id, [...(byEvent.get(a.event_id) ?? []), a.attempt]);
  }
  return byEvent;
}

/** Every request a receiver got: signed with the endpoint's secret, webhook-id = the envelope's id. */
function expectSignedDeliveries(receiver: WebhookReceiver, secret: string, events: NewEvent[]): void {
  const byId = new Map(events.map((e) => [e.id, e]));
  for (const request of receiver.received) {
    const id = request.headers["webhook-id"] as string;
    const timestamp = Number(request.headers["webhook-timestamp"]);
    const event = verifyWebhook(request.body, request.headers, secret, { now: timestamp * 1000 });
    expect(event.id).toBe(id);
    const stored = byId.get(id);
    expect(stored, `${id} is no event of the outbox: invented`).toBeDefined();
    expect(JSON.parse(request.body)).toEqual({
      id: stored!.id,
      type: stored!.type,
      created: stored!.created,
      data: stored!.data,
    });
  }
}

describe(`webhook delivery through outages and restarts, ${STORE_NAME} store`, () => {
  it("a receiver down until the last attempt, with the server restarted before every attempt, gets every event once with its stable id; one down for the whole window gets them on resend; none is invented", async () => {
    const database = await newTestDatabase("webhooks");
    cleanups.push(database.remove);
    const db = database.location;
    const late = await WebhookReceiver.start();
    const gone = await WebhookReceiver.start();
    cleanups.push(
      () => late.close(),
      () => gone.close(),
    );
    await late.down();
    await gone.down();

    let running = await serve(db, new FakeClock().now());
    const { apiKey, user } = await provisionUser(running.store, {
      plan: "studio",
      accounts: ["x", "bluesky"],
      now: running.clock.now(),
    });
    const as = (method: string, path: string, body?: unknown) =>
      call(figures, running.server, apiKey, method, path, body === undefined ? {} : { body });
    // Every type the API writes; analytics.daily, written each UTC midnight, would add events without end
    // as the clock runs through the retry window.
    const types = [
      "post.published",
      "post.scheduled",
      "post.failed",
      "post.deleted",
      "account.connected",
      "account.disconnected",
      "media.processed",
    ];
    const lateHook = (await as("POST", "/webhooks", { url: late.url, events: types })).body;
    const goneHook = (await as("POST", "/webhooks", { url: gone.url, events: types })).body;

    // Events of every kind the API writes.
    for (let i = 0; i < 4; i++)
      await as("POST", "/posts", { caption: `now ${i}`, platforms: ["x", "bluesky"] });
    const far = running.clock.now() + 90 * 86_400_000;
    for (let i = 0; i < 3; i++) {
      await as("POST", "/posts", { caption: `later ${i}`, platforms: ["x"], schedule_at: far });
    }
    const doomed = (await as("POST", "/posts", { caption: "deleted", platforms: ["x"], draft: true })).body;
    await as("DELETE", `/posts/${doomed.id}`);
    await as("POST", "/accounts/connect", { platform: "threads" });
    await as("DELETE", "/accounts/threads");
    await as("POST", "/media", { url: "https://cdn.example.com/clip.mp4" });
    const upload = await fetch(`${running.server.url}/api/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "image/png" },
      body: SAMPLE_PNG,
    });
    expect(upload.status).toBe(201);
    figures.requests++;
    const events = await running.store.listEvents(user.id);
    expect(new Set(events.map((e) => e.type))).toEqual(
      new Set([
        "post.published",
        "post.scheduled",
        "post.deleted",
        "account.connected",
        "account.disconnected",
        "media.processed",
      ]),
    );

    // Attempt 1 at once, then a restart before each of attempts 2 to 8; the late receiver comes back
    // just before the eighth.
    await running.clock.advance(0);
    for (let attempt = 2; attempt <= RETRY_SCHEDULE_MS.length; attempt++) {
      const now = running.clock.now();
      await running.stop();
      figures.faults++;
      if (attempt === RETRY_SCHEDULE_MS.length) await late.up();
      running = await serve(db, now);
      await running.clock.advance(RETRY_SCHEDULE_MS[attempt - 1]!);
    }
    expect(await running.store.nextDeliveryAt()).toBeNull();

    const lateIds = late.received.map((r) => r.headers["webhook-id"] as string);
    figures.lost += events.filter((e) => !lateIds.includes(e.id)).length;
    expect([...lateIds].sort()).toEqual(events.map((e) => e.id).sort());
    expectSignedDeliveries(late, lateHook.secret, events);
    const lateAttempts = await attemptsByEvent(running.store, lateHook.id);
    const goneAttempts = await attemptsByEvent(running.store, goneHook.id);
    for (const event of events) {
      figures.postsChecked++;
      expect(lateAttempts.get(event.id), event.type).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(goneAttempts.get(event.id), event.type).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    }
    figures.faults += 7 * events.length + 8 * events.length;

    // The receiver that was down for the whole window: every delivery was given up; a resend of each
    // event, after one more restart, delivers it with the same id.
    expect(gone.received).toEqual([]);
    await gone.up();
    const now = running.clock.now();
    await running.stop();
    running = await serve(db, now);
    for (const event of events) {
      const resent = await as("POST", `/webhooks/${goneHook.id}/events/${event.id}/resend`);
      expect(resent.status).toBe(202);
    }
    await running.clock.advance(0);
    const goneIds = gone.received.map((r) => r.headers["webhook-id"] as string);
    figures.lost += events.filter((e) => !goneIds.includes(e.id)).length;
    expect([...goneIds].sort()).toEqual(events.map((e) => e.id).sort());
    expectSignedDeliveries(gone, goneHook.secret, events);
  });
});
