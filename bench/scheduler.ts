// The scheduler on the real clock, with the SQLite store on a file opened as the server opens it (WAL
// checkpointed in the background), in this process: the store is watched to see when each post becomes
// published.
//
// 1. One post due at a time: posts are created through POST /posts with schedule_at, each due alone
//    (25 ms apart). Its lag is the time from its due time to the moment the store holds it as
//    published (fanned out to three networks, events written). Goal: p99 lag ≤ 20 ms.
// 2. 10 000 posts due at one instant: written to the database before the service starts, all due 2 s
//    later. Goal: the last of them published within 2 s of that instant.
//
//   pnpm bench scheduler [--quick]
import { join } from "node:path";
import { createService, type Service, silentLogger } from "../packages/core/src/index.ts";
import { openSqliteStore } from "../packages/server/src/index.ts";
import { startBurst } from "./lib/burst.ts";
import { observed, waitFor } from "./lib/observed-store.ts";
import { benchOptions, count } from "./lib/options.ts";
import { report, round } from "./lib/result.ts";
import { BENCH_NETWORKS, createDatabase } from "./lib/seed.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const LAG_GOAL_MS = 20;
const BURST_GOAL_MS = 2000;
const options = benchOptions();
const SAMPLES = count(options, 400, 20);
const SPACING_MS = 25;
const BURST = count(options, 10_000, 500);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function oneDueAtATime(dir: string) {
  const dbPath = join(dir, "lag.db");
  const [user] = await createDatabase(dbPath, 1);
  const sqlite = openSqliteStore(dbPath, { checkpointInBackground: true });
  const { store, publishedAt } = observed(sqlite);
  const service: Service = createService({ store, logger: silentLogger, rateLimit: false });
  await service.start();
  try {
    const first = Date.now() + 1000;
    const due = new Map<string, number>();
    for (let i = 0; i < SAMPLES; i++) {
      const at = first + i * SPACING_MS;
      const response = await service.fetch(
        new Request("http://127.0.0.1/api/v1/posts", {
          method: "POST",
          headers: { authorization: `Bearer ${user!.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({
            caption: `Scheduled post ${i}`,
            platforms: BENCH_NETWORKS,
            schedule_at: at,
          }),
        }),
      );
      const post = (await response.json()) as { id: string; status: string };
      if (response.status !== 201 || post.status !== "scheduled") {
        throw new Error(`POST /posts answered ${response.status}: ${JSON.stringify(post)}`);
      }
      due.set(post.id, at);
    }
    if (Date.now() >= first) throw new Error("creating the posts took longer than the 1 s margin");
    const span = SAMPLES * SPACING_MS;
    if (!(await waitFor(() => publishedAt.size === SAMPLES, span + 10_000))) {
      throw new Error(`only ${publishedAt.size} of ${SAMPLES} posts were published`);
    }
    const lags = [...due].map(([id, at]) => publishedAt.get(id)! - at).sort((a, b) => a - b);
    return {
      samples: SAMPLES,
      spacing_ms: SPACING_MS,
      lag_ms: {
        p50: round(percentile(lags, 50)),
        p90: round(percentile(lags, 90)),
        p99: round(percentile(lags, 99)),
        max: round(lags.at(-1)!),
        min: round(lags[0]!),
      },
    };
  } finally {
    await service.close();
    await sqlite.close();
  }
}

async function manyDueAtOnce(dir: string) {
  const { dueAt, insertMs, publishedAt, close } = await startBurst(dir, BURST);
  try {
    if (!(await waitFor(() => publishedAt.size === BURST, 60_000 + (dueAt - Date.now())))) {
      throw new Error(`only ${publishedAt.size} of ${BURST} posts were published within a minute`);
    }
    const times = [...publishedAt.values()].sort((a, b) => a - b);
    return {
      posts: BURST,
      insert_ms: Math.round(insertMs),
      first_published_after_ms: round(times[0]! - dueAt),
      all_published_after_ms: round(times.at(-1)! - dueAt),
      posts_per_second: Math.round(BURST / ((times.at(-1)! - times[0]!) / 1000)),
    };
  } finally {
    await close();
  }
}

await withTempDir(async (dir) => {
  console.log(`one post due at a time: ${SAMPLES} posts, ${SPACING_MS} ms apart`);
  const lag = await oneDueAtATime(dir);
  console.log(`  lag p50 ${lag.lag_ms.p50} ms, p99 ${lag.lag_ms.p99} ms, max ${lag.lag_ms.max} ms`);
  console.log(`${BURST.toLocaleString("en-US")} posts due at one instant`);
  const burst = await manyDueAtOnce(dir);
  console.log(
    `  first published ${burst.first_published_after_ms} ms after, all ${burst.all_published_after_ms} ms after`,
  );
  report(
    "scheduler",
    options,
    [
      {
        what: `scheduler: one post due (p99 of ${SAMPLES}, real clock)`,
        figure: lag.lag_ms.p99,
        unit: "ms lag",
        baseline: null,
        ratio: null,
        ratio_as: "times",
        goal: `≤ ${LAG_GOAL_MS} ms`,
        met: lag.lag_ms.p99 <= LAG_GOAL_MS,
      },
      {
        what: `scheduler: ${BURST.toLocaleString("en-US")} posts due at one instant, all published`,
        figure: burst.all_published_after_ms,
        unit: "ms",
        baseline: null,
        ratio: null,
        ratio_as: "times",
        goal: `≤ ${BURST_GOAL_MS} ms`,
        met: burst.all_published_after_ms <= BURST_GOAL_MS,
      },
    ],
    { one_due_at_a_time: lag, many_due_at_once: burst },
  );
});
