// How many pages a publish-now to three networks appends to SQLite's WAL: each commit writes every page
// it changed (4 KB each, with a 24-byte frame header), and those writes are most of what a publish-now
// costs the server beyond the bare HTTP work (docs/performance.md). Requests are sent one at a time,
// in-process, so each carries its own usage commit; the WAL is emptied first and read before SQLite's
// automatic checkpoint (at 1 000 pages) would empty it again.
//
//   node bench/wal-frames.ts
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createService } from "../packages/core/src/index.ts";
import { openSqliteStore } from "../packages/server/src/index.ts";
import { BENCH_NETWORKS, createDatabase } from "./lib/seed.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const WARMUP = 50;
const MEASURED = 30; // about 30 pages each: under the 1 000 pages that trigger a checkpoint
const FRAME_BYTES = 24 + 4096;
const body = JSON.stringify({
  caption: "Release 2.4 is out: faster uploads, a new scheduler view and fixes for the calendar export.",
  platforms: BENCH_NETWORKS,
});

await withTempDir(async (dir) => {
  const dbPath = join(dir, "bench.db");
  const [user] = await createDatabase(dbPath, 1);
  const store = openSqliteStore(dbPath);
  const service = createService({ store, rateLimit: false });
  const publishNow = async () => {
    const response = await service.fetch(
      new Request("http://127.0.0.1/api/v1/posts", {
        method: "POST",
        body,
        headers: {
          authorization: `Bearer ${user!.apiKey}`,
          "content-type": "application/json",
          "idempotency-key": randomUUID(),
        },
      }),
    );
    if (response.status !== 201) throw new Error(`POST /posts answered ${response.status}`);
  };
  const checkpoint = new DatabaseSync(dbPath);
  try {
    for (let i = 0; i < WARMUP; i++) await publishNow();
    checkpoint.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    for (let i = 0; i < MEASURED; i++) await publishNow();
    const frames = statSync(`${dbPath}-wal`).size / FRAME_BYTES / MEASURED;
    console.log(`${frames.toFixed(1)} WAL pages per publish-now (three networks, one request at a time)`);
  } finally {
    checkpoint.close();
    await service.close();
    await store.close();
  }
});
