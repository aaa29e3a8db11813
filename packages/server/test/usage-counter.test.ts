import { DatabaseSync } from "node:sqlite";
import { generateApiKey, hashApiKey, provisionUser } from "@socialpub/core";
import { describe, expect, it } from "vitest";
import { createKey } from "../src/cli/admin/keys.ts";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { UsageCounter } from "../src/store/sqlite/usage-counter.ts";
import { tempDir } from "./support/temp-dir.ts";

/** A counter over a plain map, recording each transaction it is given. */
function countingTransactions() {
  const totals = new Map<string, number>();
  const transactions: number[] = [];
  let callsInThisTransaction = 0;
  const counter = new UsageCounter(
    (userId, month, calls) => {
      callsInThisTransaction += calls;
      const total = (totals.get(`${userId} ${month}`) ?? 0) + calls;
      totals.set(`${userId} ${month}`, total);
      return { calls: total };
    },
    async (work) => {
      // As the store's group commit does: the work runs once this turn of the event loop is over.
      await new Promise((resolve) => setImmediate(resolve));
      callsInThisTransaction = 0;
      const result = work();
      transactions.push(callsInThisTransaction);
      return result;
    },
  );
  return { counter, transactions };
}

describe("API calls counted with one commit per turn of the event loop", () => {
  it("calls made together share one transaction and each gets its own consecutive count", async () => {
    const { counter, transactions } = countingTransactions();
    const counted = await Promise.all([
      ...Array.from({ length: 50 }, () => counter.increment("usr_a", "2026-11")),
      ...Array.from({ length: 20 }, () => counter.increment("usr_b", "2026-11")),
    ]);
    const counts = counted.map((c) => c!.calls);
    expect(transactions).toEqual([70]);
    expect(counts.slice(0, 50)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(counts.slice(50)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // The next turn goes on from there.
    expect(await counter.increment("usr_a", "2026-11")).toEqual({ calls: 51 });
    expect(transactions).toEqual([70, 1]);
  });

  it("a failed transaction fails every call in it, and later calls are counted again", async () => {
    let fail = true;
    const counter = new UsageCounter(
      () => ({ calls: 1 }),
      async (work) => {
        if (fail) throw new Error("database is locked");
        return work();
      },
    );
    const failed = await Promise.allSettled([counter.increment("u", "m"), counter.increment("u", "m")]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    await expect(counter.increment("u", "m")).resolves.toEqual({ calls: 1 });
  });

  it("on SQLite, calls are on disk when they resolve, and close() commits calls still waiting", async () => {
    const dir = tempDir();
    try {
      const path = dir.file("usage.db");
      const store = openSqliteStore(path);
      const counted = await Promise.all(
        Array.from({ length: 30 }, () => store.incrementApiCalls("u1", "2026-11")),
      );
      expect(counted).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      // Read by another connection: committed, not just held in this one.
      const other = new DatabaseSync(path);
      expect(other.prepare("SELECT calls FROM api_usage WHERE user_id = 'u1'").get()).toEqual({ calls: 30 });
      const late = store.incrementApiCalls("u1", "2026-11");
      await store.close();
      expect(await late).toBe(31);
      expect(other.prepare("SELECT calls FROM api_usage WHERE user_id = 'u1'").get()).toEqual({ calls: 31 });
      other.close();
    } finally {
      dir.remove();
    }
  });

  it("on SQLite, the calls of a turn by many keys are counted exactly: two keys of one user share its count, a revoked or unknown key counts nothing", async () => {
    const dir = tempDir();
    try {
      const store = openSqliteStore(dir.file("keys.db"));
      const a = await provisionUser(store, { plan: "studio" });
      const b = await provisionUser(store, { plan: "studio" });
      const second = await createKey(store, a.user.id);
      const revoked = await createKey(store, b.user.id);
      await store.revokeKey(revoked.record.id, Date.now());
      const month = "2026-11";
      const call = async (key: string) => store.authorizeCall(await hashApiKey(key), month);
      // One turn: a's two keys interleaved, b's key, the revoked key and a key no one has.
      const counted = await Promise.all([
        call(a.apiKey),
        call(second.apiKey),
        call(b.apiKey),
        call(revoked.apiKey),
        call(a.apiKey),
        call(generateApiKey("test")),
        call(second.apiKey),
      ]);
      expect(counted.map((c) => (c ? [c.user.id, c.calls] : null))).toEqual([
        [a.user.id, 1],
        [a.user.id, 3],
        [b.user.id, 1],
        null,
        [a.user.id, 2],
        null,
        [a.user.id, 4],
      ]);
      expect(counted[1]!.key.id).toBe(second.record.id);
      expect(await store.getApiCalls(a.user.id, month)).toBe(4);
      expect(await store.getApiCalls(b.user.id, month)).toBe(1);
      // The next turn goes on from there, and a turn with only keys that count nothing writes nothing.
      expect((await call(second.apiKey))!.calls).toBe(5);
      expect(await Promise.all([call(revoked.apiKey), call(generateApiKey("test"))])).toEqual([null, null]);
      expect(await store.getApiCalls(b.user.id, month)).toBe(1);
      await store.close();
    } finally {
      dir.remove();
    }
  });
});
