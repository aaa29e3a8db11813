import { type NewEvent, newId, provisionUser } from "@socialpub/core";
import { FakeClock } from "@socialpub/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../src/logging.ts";
import { type StartServerOptions, startServer } from "../src/server.ts";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { tempDir } from "./support/temp-dir.ts";

const DAY = 86_400_000;
const dirs: ReturnType<typeof tempDir>[] = [];
const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) dir.remove();
});

async function setUp() {
  const dir = tempDir();
  dirs.push(dir);
  const store = openSqliteStore(dir.file("retention.db"));
  stores.push(store);
  const clock = new FakeClock(Date.UTC(2026, 5, 15, 12));
  const { user } = await provisionUser(store, { accounts: ["x"], now: clock.now() - 60 * DAY });
  const eventAt = (at: number): NewEvent => ({
    id: newId("evt", at),
    user_id: user.id,
    type: "post.deleted",
    created: Math.floor(at / 1000),
    data: { post_id: "post_gone", previous_status: "draft" },
  });
  const ages = async () =>
    (await store.listEvents(user.id)).map((e) => Math.round((clock.now() - e.created * 1000) / DAY));
  return { store, clock, eventAt, ages };
}

const serve = (store: SqliteStore, clock: FakeClock, options: Partial<StartServerOptions> = {}) =>
  startServer({ port: 0, store, clock, logger: createLogger({ level: "silent" }), ...options });

describe("retention of the webhook outbox", () => {
  it("events older than the window, with nothing owed, are pruned at start and then every hour", async () => {
    const { store, clock, eventAt, ages } = await setUp();
    await store.appendEvents([eventAt(clock.now() - 40 * DAY), eventAt(clock.now() - 29 * DAY)]);
    const server = await serve(store, clock);
    try {
      await clock.advance(0);
      expect(await ages()).toEqual([29]);
      await clock.advance(DAY + 3_600_000);
      expect(await ages()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("the window is configurable, and retention: false keeps everything", async () => {
    const { store, clock, eventAt, ages } = await setUp();
    await store.appendEvents([eventAt(clock.now() - 40 * DAY), eventAt(clock.now() - 5 * DAY)]);
    const keeping = await serve(store, clock, { retention: false });
    await clock.advance(3_600_000);
    expect(await ages()).toEqual([40, 5]);
    await keeping.close();
    const short = await serve(store, clock, { retention: { days: 3 } });
    await clock.advance(0);
    expect(await ages()).toEqual([]);
    await short.close();
    expect(clock.pendingTimers).toBe(0);
  });
});
