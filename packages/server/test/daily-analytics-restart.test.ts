import { provisionUser } from "@socialpub/core";
import { FakeClock } from "@socialpub/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../src/logging.ts";
import { startServer } from "../src/server.ts";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { tempDir } from "./support/temp-dir.ts";

const DAY = 86_400_000;
const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

/** The server on `db` with `clock`, stopped and its database closed once `work` is done. */
async function withServer(
  db: string,
  clock: FakeClock,
  work: (url: string) => Promise<void> = async () => {},
) {
  const store = openSqliteStore(db);
  const logger = createLogger({ level: "silent" });
  const server = await startServer({
    port: 0,
    store,
    clock,
    logger,
    service: { allowPrivateWebhookUrls: true },
  });
  try {
    await work(`${server.url}/api/v1`);
  } finally {
    await server.close();
    await store.close();
  }
}

async function dailyDates(db: string): Promise<string[]> {
  const store = openSqliteStore(db);
  try {
    const [user] = await store.listUsers();
    return (await store.listEvents(user!.id))
      .filter((e) => e.type === "analytics.daily")
      .map((e) => (e.data as { date: string }).date);
  } finally {
    await store.close();
  }
}

describe("analytics.daily across restarts (SQLite)", () => {
  it("the days that ended while the server was stopped are written when it starts, and never twice", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const db = dir.file("daily.db");
    const clock = new FakeClock(Date.UTC(2026, 5, 15, 12));
    const setup = openSqliteStore(db);
    const { apiKey } = await provisionUser(setup, { accounts: ["x"], now: clock.now() });
    await setup.close();

    await withServer(db, clock, async (base) => {
      const res = await fetch(`${base}/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ url: "http://127.0.0.1:9/hook", events: ["analytics.daily"] }),
      });
      expect(res.status).toBe(201);
      await clock.advance(DAY);
    });
    expect(await dailyDates(db)).toEqual(["2026-06-15"]);

    await clock.advance(2 * DAY);
    await withServer(db, clock);
    expect(await dailyDates(db)).toEqual(["2026-06-15", "2026-06-16", "2026-06-17"]);
    await withServer(db, clock);
    expect(await dailyDates(db)).toEqual(["2026-06-15", "2026-06-16", "2026-06-17"]);
  });
});
