// What Node options cost a GET /posts/{id}: two reference servers side by side, one with the options
// the server ships with (packages/server/node-flags.json), one with those and the options given here,
// each on its own copy of the same database, loaded in turn over 50 keep-alive connections. Prints the
// median, over paired rounds, of the second server's CPU per request over the first's. Not part of
// `pnpm bench` (it has no goal): it measures an option before docs/deploy.md recommends or rejects it.
//
//   node bench/node-options.ts --heap-growing-percent=50            # 12 rounds of 3 s per server
//   node bench/node-options.ts                                      # no option: two identical servers,
//                                                                   # how far apart noise alone puts them
//
// Paired rounds because on a shared machine CPU per request moves by ±20 % from one round to the next
// on both servers alike (docs/performance.md, "Measured on a busy machine").
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { compare } from "./lib/compare.ts";
import { createDatabase, insertPublishedPosts } from "./lib/seed.ts";
import { serviceServerFlags, startServiceServer, stopAll } from "./lib/servers.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const CONNECTIONS = 50;
const ROUNDS = 12;
const options = process.argv.slice(2);
for (const option of options) {
  if (!option.startsWith("--"))
    throw new Error(`"${option}" is not a Node option; give options like --heap-growing-percent=50`);
}

await withTempDir(async (dir) => {
  const shippedDb = join(dir, "shipped.db");
  const users = await createDatabase(shippedDb, CONNECTIONS);
  const postIds = users.map((user) => insertPublishedPosts(shippedDb, user.userId, 100).at(-1)!);
  const optedDb = join(dir, "opted.db");
  copyFileSync(shippedDb, optedDb);
  const shipped = await startServiceServer(shippedDb, undefined, serviceServerFlags(""));
  const opted = await startServiceServer(optedDb, undefined, serviceServerFlags(options.join(" ")));
  try {
    const label = options.length > 0 ? options.join(" ") : "the same options";
    console.log(`GET /posts/{id}, ${CONNECTIONS} connections: shipped options against ${label}`);
    const { rounds } = await compare({
      contenders: [
        { name: "shipped", server: shipped },
        { name: "opted", server: opted },
      ],
      request: (i) => ({
        method: "GET",
        path: `/api/v1/posts/${postIds[i % CONNECTIONS]}`,
        headers: { authorization: `Bearer ${users[i % CONNECTIONS]!.apiKey}` },
      }),
      connections: CONNECTIONS,
      seconds: 3,
      warmupSeconds: 2,
      rounds: ROUNDS,
    });
    const ratios = rounds.shipped!.map(
      (round, i) => rounds.opted![i]!.server_cpu_us_per_request! / round.server_cpu_us_per_request!,
    );
    ratios.sort((a, b) => a - b);
    const median = (ratios[(ROUNDS - 1) >> 1]! + ratios[ROUNDS >> 1]!) / 2;
    console.log(
      `  server CPU per request, ${label} over shipped: median ${median.toFixed(3)}× over ${ROUNDS} paired rounds ` +
        `(${ratios.map((r) => r.toFixed(2)).join(" ")})`,
    );
  } finally {
    await stopAll(shipped, opted);
  }
});
