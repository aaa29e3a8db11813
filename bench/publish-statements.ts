// The SQLite statements one publish-now to three sandbox networks runs, and the time spent in each:
// requests are sent in-process to a service on a SQLite file opened as the server opens it, and every
// statement's run/get/all is timed. By default one at a time, so each request has a transaction of its
// own; with `--together N`, in waves of N requests (N users) at once, as concurrent connections arrive,
// so the writes of a wave share the store's group commit. Prints one line per statement, most time first.
//
//   node bench/publish-statements.ts [--quick] [--together 50]
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { StatementSync } from "node:sqlite";
import { createService, silentLogger } from "../packages/core/src/index.ts";
import { openSqliteStore } from "../packages/server/src/index.ts";
import { benchOptions, count } from "./lib/options.ts";
import { BENCH_NETWORKS, createDatabase } from "./lib/seed.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const togetherAt = process.argv.indexOf("--together");
const TOGETHER = togetherAt === -1 ? 1 : Number(process.argv[togetherAt + 1]);
const options = benchOptions(
  process.argv.slice(2).filter((_, i) => i + 2 !== togetherAt && i + 1 !== togetherAt),
);
const WARMUP = count(options, 300, 20);
const MEASURED = count(options, 1000, 50);
const USERS = 50;
if (!Number.isInteger(TOGETHER) || TOGETHER < 1 || TOGETHER > USERS)
  throw new Error(`--together takes a whole number of requests from 1 to ${USERS}`);
const body = JSON.stringify({
  caption: "Release 2.4 is out: faster uploads, a new scheduler view and fixes for the calendar export.",
  platforms: BENCH_NETWORKS,
});

/** Per statement text: how often it ran and the µs it took, while `counting` is on. */
const byStatement = new Map<string, { runs: number; us: number }>();
let counting = false;
for (const method of ["run", "get", "all"] as const) {
  const original = StatementSync.prototype[method] as (...args: unknown[]) => unknown;
  (StatementSync.prototype as unknown as Record<string, unknown>)[method] = function (
    this: StatementSync,
    ...args: unknown[]
  ) {
    const start = performance.now();
    const result = original.apply(this, args);
    if (counting) {
      const sql = this.sourceSQL.replace(/\s+/g, " ").slice(0, 100);
      const entry = byStatement.get(sql) ?? { runs: 0, us: 0 };
      entry.runs++;
      entry.us += (performance.now() - start) * 1000;
      byStatement.set(sql, entry);
    }
    return result;
  };
}

await withTempDir(async (dir) => {
  const dbPath = join(dir, "bench.db");
  const users = await createDatabase(dbPath, USERS);
  const store = openSqliteStore(dbPath, { checkpointInBackground: true });
  const service = createService({ store, rateLimit: false, logger: silentLogger });
  await service.start();
  const publishNow = async (i: number) => {
    const response = await service.fetch(
      new Request("http://127.0.0.1/api/v1/posts", {
        method: "POST",
        body,
        headers: {
          authorization: `Bearer ${users[i % USERS]!.apiKey}`,
          "content-type": "application/json",
          "idempotency-key": randomUUID(),
        },
      }),
    );
    if (response.status !== 201)
      throw new Error(`POST /posts answered ${response.status}: ${await response.text()}`);
    await response.text();
  };
  try {
    // Each wave: TOGETHER requests of as many users, sent at once.
    const wave = (first: number) =>
      Promise.all(Array.from({ length: TOGETHER }, (_, i) => publishNow(first + i)));
    for (let i = 0; i < WARMUP; i += TOGETHER) await wave(i);
    counting = true;
    const cpu = process.threadCpuUsage();
    for (let i = 0; i < MEASURED; i += TOGETHER) await wave(i);
    const used = process.threadCpuUsage(cpu);
    counting = false;
    let runs = 0;
    let us = 0;
    for (const [sql, entry] of [...byStatement].sort((a, b) => b[1].us - a[1].us)) {
      runs += entry.runs;
      us += entry.us;
      console.log(
        `${(entry.runs / MEASURED).toFixed(2).padStart(6)} × ${(entry.us / MEASURED).toFixed(1).padStart(7)} µs  ${sql}`,
      );
    }
    const cpuUs = (used.user + used.system) / MEASURED;
    console.log(
      `per publish-now: ${(runs / MEASURED).toFixed(1)} statements, ${(us / MEASURED).toFixed(0)} µs in SQLite, ${cpuUs.toFixed(0)} µs of CPU in all (this thread; ${MEASURED} requests, ${TOGETHER === 1 ? "one at a time" : `${TOGETHER} at once`})`,
    );
  } finally {
    await store.close();
  }
});
