// Starts the reference server many times, each a process of its own on the same database, puts each
// under GET /posts/{id} over 50 keep-alive connections for a few seconds, and prints per start the CPU
// per request and the bytes V8's young collections copied into the old generation per request. A
// start that copies over a kilobyte a GET is counted as one where V8 pretenured a request's objects
// (docs/performance.md, "Pretenuring"): they then go to the old generation as they are made, and the
// server spends about 1.4× its usual CPU per GET for the rest of its life. Node options given are
// added after the ones the server ships with (the last of two opposite V8 flags wins), e.g. to see how
// often it happens without the shipped `--no-allocation-site-pretenuring`:
//
//   node bench/server-starts.ts                                          # 20 starts, shipped options
//   node bench/server-starts.ts --allocation-site-pretenuring --starts 40
//
// Not part of `pnpm bench` (it has no goal of its own): it shows what a single benchmark run cannot,
// how often a start goes wrong.
import { join } from "node:path";
import serverNodeFlags from "../packages/server/node-flags.json" with { type: "json" };
import { measuredRound } from "./lib/compare.ts";
import { load } from "./lib/load.ts";
import { ownAndNodeOptions } from "./lib/node-options.ts";
import { createDatabase, insertPublishedPosts, resetMonthlyCalls } from "./lib/seed.ts";
import { startServiceServer } from "./lib/servers.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const CONNECTIONS = 50;
const PRETENURED_BYTES = 1_000;

const { values, nodeOptions } = ownAndNodeOptions({ starts: { type: "string", default: "20" } });
const STARTS = Number(values.starts);
if (!Number.isInteger(STARTS) || STARTS < 1) throw new Error("--starts takes a whole number of starts");
const flags = [...serverNodeFlags.flags, ...nodeOptions];

await withTempDir(async (dir) => {
  const dbPath = join(dir, "bench.db");
  const users = await createDatabase(dbPath, CONNECTIONS);
  const postIds = users.map((user) => insertPublishedPosts(dbPath, user.userId, 100).at(-1)!);
  const request = (i: number) => ({
    method: "GET" as const,
    path: `/api/v1/posts/${postIds[i % CONNECTIONS]}`,
    headers: { authorization: `Bearer ${users[i % CONNECTIONS]!.apiKey}` },
  });
  console.log(
    `${STARTS} starts of the server with ${flags.join(" ")}; GET /posts/{id}, ${CONNECTIONS} connections`,
  );
  let pretenured = 0;
  for (let start = 1; start <= STARTS; start++) {
    const server = await startServiceServer(dbPath, undefined, flags);
    try {
      await load({ url: server.url, connections: CONNECTIONS, seconds: 2, request });
      const round = await measuredRound(server, { connections: CONNECTIONS, seconds: 3, request });
      const promoted = round.server_promoted_bytes_per_request!;
      if (promoted > PRETENURED_BYTES) pretenured++;
      console.log(
        `  start ${start}: ${round.server_cpu_us_per_request} µs CPU per request, ${promoted} B promoted per request, ${round.server_full_gcs} full collections${promoted > PRETENURED_BYTES ? " — pretenured" : ""}`,
      );
    } finally {
      await server.stop();
    }
    // Every call counts against its user's month: a fresh month for each start keeps them under it.
    resetMonthlyCalls(dbPath);
  }
  console.log(`${pretenured} of ${STARTS} starts pretenured a request's objects`);
});
