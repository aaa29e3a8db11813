// Memory of the reference server process with 1 000 000 posts stored (50 users with 20 000 published
// posts each, three networks per post) while it serves GET /posts?limit=100 and GET /posts/{id} of
// random posts over 50 keep-alive connections. RSS (and the heap in use) is sampled through the run.
// Goal: the largest RSS sample at most 150 MB.
//
//   pnpm bench memory [--quick]
import { statSync } from "node:fs";
import { join } from "node:path";
import { load } from "./lib/load.ts";
import { benchOptions, count, seconds } from "./lib/options.ts";
import { report, round } from "./lib/result.ts";
import { sampleMemory } from "./lib/rss.ts";
import { createDatabase, insertPublishedPosts } from "./lib/seed.ts";
import { startServiceServer, stopAll } from "./lib/servers.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const GOAL_MB = 150;
const CONNECTIONS = 50;
const options = benchOptions();
const POSTS = count(options, 1_000_000, 10_000);
const SECONDS = seconds(options, 20, 2);
const MB = 1024 * 1024;

await withTempDir(async (dir) => {
  const dbPath = join(dir, "bench.db");
  const users = await createDatabase(dbPath, CONNECTIONS);
  const started = performance.now();
  const ids = users.map((user) => insertPublishedPosts(dbPath, user.userId, POSTS / CONNECTIONS));
  const seedSeconds = round((performance.now() - started) / 1000, 1);
  const dbMb = round((statSync(dbPath).size + walSize(dbPath)) / MB, 0);
  console.log(`${POSTS.toLocaleString("en-US")} posts stored in ${seedSeconds} s (database ${dbMb} MB)`);
  const server = await startServiceServer(dbPath);
  try {
    const idle = await server.rss();
    const sampler = sampleMemory(server, 250);
    // Each connection is one user: it reads a page of its posts, then one of its posts at random.
    const result = await load({
      url: server.url,
      connections: CONNECTIONS,
      seconds: SECONDS,
      request: (i) => {
        const mine = ids[i % CONNECTIONS]!;
        return {
          method: "GET",
          path: "/api/v1/posts?limit=100",
          headers: { authorization: `Bearer ${users[i % CONNECTIONS]!.apiKey}` },
          setupRequest: (req) => ({
            ...req,
            path:
              Math.random() < 0.5
                ? "/api/v1/posts?limit=100"
                : `/api/v1/posts/${mine[Math.floor(Math.random() * mine.length)]}`,
          }),
        };
      },
    });
    const memory = await sampler.stop();
    const samples = memory.map((m) => m.rss);
    const peak = Math.max(...samples);
    const atPeak = memory[samples.indexOf(peak)]!.counters;
    const breakdown = Object.fromEntries(
      Object.entries(atPeak)
        .filter(([name]) => name.startsWith("rss_") || name.startsWith("v8_") || name === "external")
        .map(([name, bytes]) => [`${name}_mb`, round(bytes / MB, 1)]),
    );
    console.log(`  at the peak: ${JSON.stringify(breakdown)}`);
    // Collections over the whole run (bench/lib/gc-counters.ts): what the load left in the old generation.
    const last = memory.at(-1)!.counters;
    const gc = {
      scavenges: last.gc_scavenges,
      full: last.gc_full,
      promoted_mb: round((last.gc_promoted_bytes ?? 0) / MB, 1),
      promoted_bytes_per_request: Math.round((last.gc_promoted_bytes ?? 0) / result.requests),
    };
    console.log(`  collections: ${JSON.stringify(gc)}`);
    console.log(
      `  ${result.requests.toLocaleString("en-US")} requests (${result.requests_per_s.toLocaleString("en-US")} req/s); ` +
        `RSS idle ${round(idle / MB, 1)} MB, peak ${round(peak / MB, 1)} MB over ${samples.length} samples`,
    );
    report(
      "memory",
      options,
      [
        {
          what: `server RSS with ${POSTS.toLocaleString("en-US")} posts stored, serving GET /posts and GET /posts/{id}`,
          figure: round(peak / MB, 1),
          unit: "MB",
          baseline: null,
          ratio: null,
          ratio_as: "times",
          goal: `≤ ${GOAL_MB} MB`,
          met: peak / MB <= GOAL_MB,
        },
      ],
      {
        posts: POSTS,
        users: CONNECTIONS,
        seed_seconds: seedSeconds,
        database_mb: dbMb,
        rss_idle_mb: round(idle / MB, 1),
        // What held the RSS at its largest sample (bench/lib/memory-breakdown.ts).
        at_peak: breakdown,
        gc,
        seed: "rows written straight into the database file in transactions of 20 000 posts (bench/lib/seed.ts)",
        rss_samples_mb: samples.map((s) => round(s / MB, 1)),
        heap_used_samples_mb: memory.map((m) => round(m.heapUsed / MB, 1)),
        load: result,
      },
    );
  } finally {
    await stopAll(server);
  }
});

function walSize(dbPath: string): number {
  try {
    return statSync(`${dbPath}-wal`).size;
  } catch {
    return 0;
  }
}
