import { randomBytes } from "node:crypto";
import { CredentialKeyring, createService, provisionUser, type Service } from "@socialpub/core";
import { FakeClock } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { newDatabase } from "./support/databases.ts";

/*
 * Two instances on one PostgreSQL database sweep ending grants: an account connected through a third
 * connection wakes both (LISTEN/NOTIFY), both timers fire at the account's thresholds, and the account
 * changes, and account.disconnected is written, once.
 */

const DAY = 86_400_000;
const MINUTE = 60_000;
const clock = new FakeClock(Date.UTC(2026, 10, 1, 12));
const silent = { error: () => {}, warn: () => {}, info: () => {} };

let writer: PostgresStore;
const stores: PostgresStore[] = [];
const services: Service[] = [];

beforeAll(async () => {
  const db = await newDatabase("grants");
  writer = await openPostgresStore(db, { poolSize: 2 });
  const keyring = new CredentialKeyring(randomBytes(32));
  for (let i = 0; i < 2; i++) {
    const store = await openPostgresStore(db, { poolSize: 3 });
    stores.push(store);
    const service = createService({ store, clock, logger: silent, credentialKeyring: keyring });
    await service.start();
    services.push(service);
  }
}, 60_000);

afterAll(async () => {
  for (const service of services) await service.close();
  for (const store of [...stores, writer]) await store?.close();
});

/** Waits (bounded) until `count` more timers than `before` are set on the clock. */
async function timersArmed(before: number, count: number): Promise<void> {
  const end = Date.now() + 20_000;
  while (clock.pendingTimers < before + count) {
    if (Date.now() > end) throw new Error(`the instances' sweeps never armed (${clock.pendingTimers})`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("ending grants on several instances", () => {
  it("an account connected elsewhere is turned expiring, then reauth_required with one event, by one instance", async () => {
    const { user } = await provisionUser(writer, { accounts: [], plan: "studio", now: clock.now() });
    const before = clock.pendingTimers;
    await writer.putAccount({
      user_id: user.id,
      mode: "live",
      platform: "instagram",
      handle: "@bakery",
      followers: 10,
      health: "healthy",
      connected_at: clock.now(),
      credentials: "v1.sealed.iv.ct.tag",
      grant_ends_at: clock.now() + 8 * DAY,
    });
    // Neither instance made the change: both learn of it from the database.
    await timersArmed(before, 2);

    await clock.advance(DAY + MINUTE);
    expect((await writer.getAccount(user.id, "live", "instagram"))!.health).toBe("expiring");
    await clock.advance(7 * DAY);
    expect((await writer.getAccount(user.id, "live", "instagram"))!.health).toBe("reauth_required");
    const events = await writer.listEvents(user.id);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["account.disconnected", { platform: "instagram", handle: "@bakery", health: "reauth_required" }],
    ]);
  }, 60_000);
});
