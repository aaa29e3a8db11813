// Two reference servers side by side on GET /posts/{id} (or, with `--publish-now`, on POST /posts
// publishing now to three sandbox networks, each with an Idempotency-Key of its own): this checkout's, with any Node options given
// added to the ones the server ships with (packages/server/node-flags.json), against this checkout's
// with the shipped options only — or, with `--against <dir>`, against the server of another checkout
// (another commit, its dependencies installed). Each runs on its own copy of the same database and is
// loaded in turn over 50 keep-alive connections; prints the median, over paired rounds, of this
// checkout's CPU per request over the other's. Not part of `pnpm bench` (it has no goal): it measures an
// option or a change before docs/deploy.md or docs/performance.md says what it costs or saves.
//
//   node bench/side-by-side.ts --heap-growing-percent=50   # what an option costs (12 rounds of 3 s each)
//   node bench/side-by-side.ts                             # two identical servers: how far apart noise
//                                                          # alone puts them
//   git worktree add /tmp/base e314adb && (cd /tmp/base && pnpm install --frozen-lockfile --offline)
//   node bench/side-by-side.ts --against /tmp/base         # what the commits since e314adb changed
//   node bench/side-by-side.ts --publish-now --against /tmp/base   # … to a publish-now
//
// Paired rounds because on a shared machine CPU per request moves by ±20 % from one round to the next
// on both servers alike (docs/performance.md, "Measured on a busy machine").
import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startChild } from "./lib/child.ts";
import { compare } from "./lib/compare.ts";
import type { LoadRequest } from "./lib/load.ts";
import { ownAndNodeOptions } from "./lib/node-options.ts";
import { BENCH_NETWORKS, createDatabase, insertPublishedPosts } from "./lib/seed.ts";
import { serviceServerFlags, startServiceServer, stopAll } from "./lib/servers.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const CONNECTIONS = 50;
const ROUNDS = 12;

const { values, nodeOptions: options } = ownAndNodeOptions({
  "publish-now": { type: "boolean" },
  against: { type: "string" },
});
const publishNow = values["publish-now"] === true;
const against = values.against;
if (against !== undefined && typeof against !== "string") {
  throw new Error("--against needs the folder of another checkout");
}
const otherServer = against ? pathToFileURL(resolve(against, "bench/lib/service-server.ts")) : undefined;
if (otherServer && !existsSync(otherServer)) throw new Error(`${fileURLToPath(otherServer)} does not exist`);

await withTempDir(async (dir) => {
  const baselineDb = join(dir, "baseline.db");
  const users = await createDatabase(baselineDb, CONNECTIONS);
  const postIds = users.map((user) => insertPublishedPosts(baselineDb, user.userId, 100).at(-1)!);
  const measuredDb = join(dir, "measured.db");
  copyFileSync(baselineDb, measuredDb);
  const baseline = otherServer
    ? await startChild(otherServer, [baselineDb], serviceServerFlags(""))
    : await startServiceServer(baselineDb, undefined, serviceServerFlags(""));
  const measured = await startServiceServer(measuredDb, undefined, serviceServerFlags(options.join(" ")));
  try {
    const what = [...(against ? ["this checkout"] : []), ...options].join(" ") || "the same options";
    const over = against ? `the checkout in ${against}` : "the shipped options";
    const call = publishNow ? "POST /posts (publish now)" : "GET /posts/{id}";
    console.log(`${call}, ${CONNECTIONS} connections: ${what} against ${over}`);
    const body = JSON.stringify({ caption: "Release 2.4 is out.", platforms: BENCH_NETWORKS });
    const request = (i: number): LoadRequest => {
      const authorization = `Bearer ${users[i % CONNECTIONS]!.apiKey}`;
      if (!publishNow) {
        return {
          method: "GET",
          path: `/api/v1/posts/${postIds[i % CONNECTIONS]}`,
          headers: { authorization },
        };
      }
      return {
        method: "POST",
        path: "/api/v1/posts",
        headers: { authorization },
        body,
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, "idempotency-key": randomUUID() } }),
      };
    };
    const { rounds } = await compare({
      contenders: [
        { name: "baseline", server: baseline },
        { name: "measured", server: measured },
      ],
      request,
      connections: CONNECTIONS,
      seconds: 3,
      warmupSeconds: 2,
      rounds: ROUNDS,
    });
    const ratios = rounds.baseline!.map(
      (round, i) => rounds.measured![i]!.server_cpu_us_per_request! / round.server_cpu_us_per_request!,
    );
    ratios.sort((a, b) => a - b);
    const median = (ratios[(ROUNDS - 1) >> 1]! + ratios[ROUNDS >> 1]!) / 2;
    console.log(
      `  server CPU per request, ${what} over ${over}: median ${median.toFixed(3)}× over ${ROUNDS} paired rounds ` +
        `(${ratios.map((r) => r.toFixed(2)).join(" ")})`,
    );
  } finally {
    await stopAll(baseline, measured);
  }
});
