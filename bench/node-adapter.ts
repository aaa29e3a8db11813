// The two ways the server can turn Node's requests into the service's web-standard ones, measured in
// the same run: `@hono/node-server` (lazy request and response objects) against the hand-written
// adapter (packages/server/src/http/node-adapter.ts). Each serves the same service on its own copy of
// the same database, in a process of its own, on GET /posts/{id} and on POST /posts publishing now to
// three networks (a fresh Idempotency-Key per request), 50 keep-alive connections. Both keep the same
// behaviour (packages/server/test/http-*.test.ts); the cheaper is the default, and the library when
// they are close. The figure is the server's CPU per request; requests per second are in the rounds.
//
//   pnpm bench node-adapter [--quick]
import { randomUUID } from "node:crypto";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { compare, ratioOf } from "./lib/compare.ts";
import type { LoadRequest } from "./lib/load.ts";
import { benchOptions, count, seconds } from "./lib/options.ts";
import { report } from "./lib/result.ts";
import { BENCH_NETWORKS, createDatabase, insertPublishedPosts, resetMonthlyCalls } from "./lib/seed.ts";
import { startServiceServer, stopAll } from "./lib/servers.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const CONNECTIONS = 50;
const options = benchOptions();
const POSTS_PER_USER = count(options, 100, 10);
const HONO = "@hono/node-server";
const OWN = "hand-written adapter";
const postBody = JSON.stringify({
  caption: "Release 2.4 is out: faster uploads, a new scheduler view and fixes for the calendar export.",
  platforms: BENCH_NETWORKS,
});

await withTempDir(async (dir) => {
  const honoDb = join(dir, "hono.db");
  const ownDb = join(dir, "own.db");
  const users = await createDatabase(honoDb, CONNECTIONS);
  const postIds = users.map((user) => insertPublishedPosts(honoDb, user.userId, POSTS_PER_USER).at(-1)!);
  // The same users, keys and posts for both: a copy made before either server opens it.
  copyFileSync(honoDb, ownDb);
  const hono = await startServiceServer(honoDb, "hono");
  const own = await startServiceServer(ownDb, "socialpub");
  try {
    const auth = (i: number) => ({ authorization: `Bearer ${users[i % CONNECTIONS]!.apiKey}` });
    for (const server of [hono, own]) {
      const sample = await fetch(`${server.url}/api/v1/posts/${postIds[0]}`, { headers: auth(0) });
      if (sample.status !== 200) throw new Error(`GET /posts/{id} answered ${sample.status}`);
    }
    const run = (request: (i: number) => LoadRequest) =>
      compare({
        contenders: [
          { name: HONO, server: hono },
          { name: OWN, server: own },
        ],
        request,
        connections: CONNECTIONS,
        seconds: seconds(options, 5),
        warmupSeconds: seconds(options, 2),
        rounds: count(options, 3, 1),
        // Both databases' monthly counters start every round at zero, far from the allowance.
        beforeRound: () => {
          resetMonthlyCalls(honoDb);
          resetMonthlyCalls(ownDb);
        },
      });

    console.log(`GET /posts/{id}, ${CONNECTIONS} connections`);
    const get = await run((i) => ({
      method: "GET",
      path: `/api/v1/posts/${postIds[i % CONNECTIONS]}`,
      headers: auth(i),
    }));
    console.log(`POST /posts (publish now, ${BENCH_NETWORKS.length} networks), ${CONNECTIONS} connections`);
    const post = await run((i) => ({
      method: "POST",
      path: "/api/v1/posts",
      headers: { ...auth(i), "content-type": "application/json" },
      body: postBody,
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, "idempotency-key": randomUUID() } }),
    }));

    // CPU per answered request, the median of each side's rounds: requests per second on this shared
    // machine swing by ±50 % between rounds, the CPU a request costs much less (docs/performance.md).
    const cpuOf = (result: typeof get, name: string) => {
      const cpu = result.rounds[name]!.map((r) => r.server_cpu_us_per_request ?? Number.NaN).sort(
        (a, b) => a - b,
      );
      return cpu[Math.floor(cpu.length / 2)]!;
    };
    const row = (what: string, result: typeof get) => {
      const hono = cpuOf(result, HONO);
      const own = cpuOf(result, OWN);
      // Above 1: the library costs less CPU per request than the hand-written adapter.
      const ratio = ratioOf(own, hono);
      return {
        what: `${what}: server CPU per request with @hono/node-server`,
        figure: hono,
        unit: "µs CPU/request",
        baseline: { what: "hand-written adapter", figure: own, unit: "µs CPU/request" },
        ratio,
        ratio_as: "times" as const,
        goal: "≥ 0.9× (the library unless clearly costlier)",
        met: ratio >= 0.9,
      };
    };
    report(
      "node-adapter",
      options,
      [
        row(`GET /posts/{id}, ${CONNECTIONS} connections`, get),
        row(`POST /posts publish now to ${BENCH_NETWORKS.length} networks, ${CONNECTIONS} connections`, post),
      ],
      { connections: CONNECTIONS, posts_per_user: POSTS_PER_USER, get_post: get, create_post: post },
    );
  } finally {
    await stopAll(hono, own);
  }
});
