// The three calls of the HTTP benchmarks — GET /posts/{id}, POST /posts (publish now to three networks),
// GET /posts?limit=100 — against the reference server (SQLite file, its own process) and against
// Prism's mock server serving the reference server's own /api/v1/openapi.json: what a team would
// otherwise run to fake this API. Both are loaded alike, over 50 keep-alive connections, in the same run.
// Prism answers from the document alone (a static example built from each schema); the reference server
// stores, publishes and reads real posts. Goal: the reference server ahead on every call, and at least
// 1.5× Prism on POST /posts and on the list.
//
//   pnpm bench prism [--quick]
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Compared, compare, ratioOf } from "./lib/compare.ts";
import type { LoadRequest } from "./lib/load.ts";
import { benchOptions, count, seconds } from "./lib/options.ts";
import { prismConformance, startPrism } from "./lib/prism.ts";
import { type ResultRow, report } from "./lib/result.ts";
import { BENCH_NETWORKS, createDatabase, insertPublishedPosts, resetMonthlyCalls } from "./lib/seed.ts";
import { startServiceServer, stopAll } from "./lib/servers.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const CONNECTIONS = 50;
const options = benchOptions();
const LIST_POSTS = count(options, 100_000, 1_000);
const API = "/api/v1";
const createBody = JSON.stringify({
  caption: "Release 2.4 is out: faster uploads, a new scheduler view and fixes for the calendar export.",
  platforms: BENCH_NETWORKS,
});

await withTempDir(async (dir) => {
  const dbPath = join(dir, "bench.db");
  const users = await createDatabase(dbPath, CONNECTIONS);
  const postIds = users.map((user) => insertPublishedPosts(dbPath, user.userId, 100).at(-1)!);
  // The first user's list is long, as in the list-posts benchmark.
  insertPublishedPosts(dbPath, users[0]!.userId, LIST_POSTS - 100);
  const server = await startServiceServer(dbPath);
  let prism: Awaited<ReturnType<typeof startPrism>> | undefined;
  try {
    const documentPath = join(dir, "openapi.json");
    const documentResponse = await fetch(`${server.url}${API}/openapi.json`);
    writeFileSync(documentPath, await documentResponse.text());
    prism = await startPrism(documentPath, join(dir, "prism.log"));
    const auth = (i: number) => ({ authorization: `Bearer ${users[i % CONNECTIONS]!.apiKey}` });

    // Each call as the reference server takes it; Prism gets the same request at its root.
    const calls: {
      name: string;
      request: (i: number) => LoadRequest;
      oneUser?: boolean;
      /** How many times Prism's rate the reference server must reach. */
      goal?: number;
    }[] = [
      {
        name: "GET /posts/{id}",
        request: (i) => ({
          method: "GET",
          path: `${API}/posts/${postIds[i % CONNECTIONS]}`,
          headers: auth(i),
        }),
      },
      {
        name: `POST /posts publish now to ${BENCH_NETWORKS.length} networks`,
        request: (i) => ({
          method: "POST",
          path: `${API}/posts`,
          headers: auth(i),
          body: createBody,
          setupRequest: (req) => ({ ...req, headers: { ...req.headers, "idempotency-key": randomUUID() } }),
        }),
        goal: 1.5,
      },
      {
        name: `GET /posts?limit=100 with ${LIST_POSTS.toLocaleString("en-US")} posts`,
        request: () => ({ method: "GET", path: `${API}/posts?limit=100`, headers: auth(0) }),
        oneUser: true,
        goal: 1.5,
      },
    ];
    const conformance = await prismConformance(prism.url, calls.map((c) => c.request(0)).map(atRoot));

    const rows: ResultRow[] = [];
    const details: Record<string, Compared> = {};
    for (const call of calls) {
      console.log(`${call.name}, ${CONNECTIONS} connections`);
      const result = await compare({
        contenders: [
          { name: "Prism mock", server: prism, request: (i) => atRoot(call.request(i)) },
          { name: "socialpub server", server },
        ],
        request: call.request,
        connections: CONNECTIONS,
        seconds: seconds(options, 5),
        warmupSeconds: seconds(options, 2),
        rounds: count(options, 3, 1),
        ...(call.oneUser && { beforeRound: () => resetMonthlyCalls(dbPath) }),
      });
      details[call.name] = result;
      const ours = result.median["socialpub server"]!;
      const theirs = result.median["Prism mock"]!;
      const ratio = ratioOf(ours.requests_per_s, theirs.requests_per_s);
      rows.push({
        what: call.name,
        figure: ours.requests_per_s,
        unit: "req/s",
        baseline: { what: "Prism mock", figure: theirs.requests_per_s, unit: "req/s" },
        ratio,
        ratio_as: "times",
        goal: call.goal === undefined ? "> 1× (ahead)" : `≥ ${call.goal}×`,
        met: call.goal === undefined ? ratio > 1 : ratio >= call.goal,
      });
    }
    report("prism", options, rows, { connections: CONNECTIONS, prism_answers: conformance, ...details });
  } finally {
    await stopAll(server, prism);
  }
});

/** Prism serves the document's paths at its root. */
function atRoot(request: LoadRequest): LoadRequest {
  return { ...request, path: request.path.slice(API.length) };
}
