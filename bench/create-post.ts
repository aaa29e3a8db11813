// POST /posts publishing now to three networks, over 50 keep-alive connections: the reference server
// (SQLite file in WAL mode with the synchronous setting it ships with, its own process) against bare
// node:http answering the same post JSON (its own process), measured in the same run. Each request
// carries a fresh Idempotency-Key, as the typed client sends one on every POST. Every 201 is a post
// committed to the database with its three targets and three post.published events.
// Goal: at least 15 % of the bare server's requests per second.
//
//   pnpm bench create-post [--quick]
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { compare, ratioOf } from "./lib/compare.ts";
import type { LoadRequest } from "./lib/load.ts";
import { benchOptions, count, seconds } from "./lib/options.ts";
import { report } from "./lib/result.ts";
import { BENCH_NETWORKS, createDatabase } from "./lib/seed.ts";
import { startBareServer, startServiceServer, stopAll } from "./lib/servers.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const GOAL = 0.15;
const CONNECTIONS = 50;
const options = benchOptions();
const body = JSON.stringify({
  caption: "Release 2.4 is out: faster uploads, a new scheduler view and fixes for the calendar export.",
  platforms: BENCH_NETWORKS,
});

await withTempDir(async (dir) => {
  const dbPath = join(dir, "bench.db");
  const users = await createDatabase(dbPath, CONNECTIONS);
  const server = await startServiceServer(dbPath);
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
    const request = (i: number): LoadRequest => ({
      method: "POST",
      path: "/api/v1/posts",
      headers: { authorization: `Bearer ${users[i % CONNECTIONS]!.apiKey}` },
      body,
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, "idempotency-key": randomUUID() } }),
    });
    const sample = await fetch(`${server.url}/api/v1/posts`, {
      method: "POST",
      headers: { authorization: `Bearer ${users[0]!.apiKey}`, "content-type": "application/json" },
      body,
    });
    const sampleBody = await sample.text();
    if (sample.status !== 201 || JSON.parse(sampleBody).status !== "published") {
      throw new Error(`POST /posts answered ${sample.status}: ${sampleBody}`);
    }
    bare = await startBareServer(sampleBody);

    console.log(`POST /posts (publish now, ${BENCH_NETWORKS.length} networks), ${CONNECTIONS} connections`);
    const result = await compare({
      contenders: [
        { name: "bare node:http", server: bare },
        { name: "socialpub server", server },
      ],
      request,
      connections: CONNECTIONS,
      seconds: seconds(options, 5),
      warmupSeconds: seconds(options, 2),
      rounds: count(options, 3, 1),
    });
    const ours = result.median["socialpub server"]!;
    const baseline = result.median["bare node:http"]!;
    const ratio = ratioOf(ours.requests_per_s, baseline.requests_per_s);
    report(
      "create-post",
      options,
      [
        {
          what: `POST /posts publish now to ${BENCH_NETWORKS.length} networks, durable, ${CONNECTIONS} connections`,
          figure: ours.requests_per_s,
          unit: "req/s",
          baseline: { what: "bare node:http", figure: baseline.requests_per_s, unit: "req/s" },
          ratio,
          ratio_as: "percent",
          goal: "≥ 15 %",
          met: ratio >= GOAL,
        },
      ],
      { connections: CONNECTIONS, networks: BENCH_NETWORKS, synchronous: "normal", ...result },
    );
  } finally {
    await stopAll(server, bare);
  }
});
