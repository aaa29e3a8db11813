// The SQLite statements one publish-now to three sandbox networks runs, and the time spent in each:
// requests are sent in-process to a service on a SQLite file opened as the server opens it, and every
// statement's run/get/all is timed. By default one at a time, so each request has a transaction of its
// own; with `--together N`, in waves of N requests (N users) at once, as concurrent connections arrive,
// so the writes of a wave share the store's group commit. Prints one line per statement, most time first.
//
//   node bench/publish-statements.ts [--quick] [--together 50]
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { createService, silentLogger } from "../packages/core/src/index.ts";
import { openSqliteStore } from "../packages/server/src/index.ts";
import { benchOptions, count } from "./lib/options.ts";
import { BENCH_NETWORKS, createDatabase } from "./lib/seed.ts";
import { printStatementTimes, timeStatements } from "./lib/statement-timer.ts";
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

const timer = timeStatements();

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
    timer.on = true;
    const cpu = process.threadCpuUsage();
    for (let i = 0; i < MEASURED; i += TOGETHER) await wave(i);
    const used = process.threadCpuUsage(cpu);
    timer.on = false;
    printStatementTimes(
      timer.times,
      MEASURED,
      used,
      "publish-now",
      `${MEASURED} requests, ${TOGETHER === 1 ? "one at a time" : `${TOGETHER} at once`}`,
    );
  } finally {
    await store.close();
  }
});
