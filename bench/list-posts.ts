// GET /posts?limit=100 (a full page: 100 posts with their reach and engagement) over 50 keep-alive
// connections, against three reference servers (SQLite files, each in its own process) holding 1 000,
// 10 000 and 100 000 posts, and bare node:http answering one post JSON. All four are measured in the same
// run, in alternating rounds, so a change in the machine's load hits every size alike.
// Goals: at 100 000 posts at least 10 % of the bare server's requests per second, and p99 latency flat
// from 1 000 to 100 000 posts (p99 at 100 000 at most 1.5× p99 at 1 000).
//
//   pnpm bench list-posts [--quick]
import { join } from "node:path";
import { type Contender, compare, ratioOf } from "./lib/compare.ts";
import { benchOptions, count, seconds } from "./lib/options.ts";
import { report, round } from "./lib/result.ts";
import { type BenchUser, createDatabase, insertPublishedPosts, resetMonthlyCalls } from "./lib/seed.ts";
import { startBareServer, startServiceServer, stopAll } from "./lib/servers.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const THROUGHPUT_GOAL = 0.1;
const FLAT_GOAL = 1.5;
const CONNECTIONS = 50;
const options = benchOptions();
const SIZES = options.quick ? [100, 1_000, 2_000] : [1_000, 10_000, 100_000];
const BARE = "bare node:http";
const sizeName = (size: number) => `${size.toLocaleString("en-US")} posts`;

await withTempDir(async (dir) => {
  // One database per size, each with one user who holds all its posts; every connection lists them
  // (the user's monthly call counter is reset between rounds, see resetMonthlyCalls).
  const databases: { size: number; path: string; user: BenchUser }[] = [];
  for (const size of SIZES) {
    const path = join(dir, `${size}.db`);
    const [user] = await createDatabase(path, 1);
    const started = performance.now();
    insertPublishedPosts(path, user!.userId, size);
    console.log(`${sizeName(size)} stored in ${Math.round(performance.now() - started)} ms`);
    databases.push({ size, path, user: user! });
  }
  const servers: Awaited<ReturnType<typeof startServiceServer>>[] = [];
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
    const contenders: Contender[] = [];
    for (const db of databases) {
      const server = await startServiceServer(db.path);
      servers.push(server);
      await checkFullPage(server.url, db.user.apiKey);
      contenders.push({
        name: sizeName(db.size),
        server,
        request: () => ({
          method: "GET",
          path: "/api/v1/posts?limit=100",
          headers: { authorization: `Bearer ${db.user.apiKey}` },
        }),
      });
    }
    const largest = databases.at(-1)!;
    bare = await startBareServer(await onePostJson(servers.at(-1)!.url, largest.user.apiKey));
    contenders.unshift({ name: BARE, server: bare });

    console.log(`GET /posts?limit=100, ${CONNECTIONS} connections`);
    const result = await compare({
      contenders,
      // The bare server answers whatever it is asked; it is asked what the largest server is.
      request: contenders.at(-1)!.request!,
      connections: CONNECTIONS,
      seconds: seconds(options, 5),
      warmupSeconds: seconds(options, 2),
      rounds: count(options, 3, 1),
      beforeRound: () => {
        for (const db of databases) resetMonthlyCalls(db.path);
      },
    });

    const bySize = Object.fromEntries(SIZES.map((size) => [size, result.median[sizeName(size)]!]));
    const smallest = bySize[SIZES[0]!]!;
    const top = bySize[largest.size]!;
    const baseline = result.median[BARE]!;
    const ratio = ratioOf(top.requests_per_s, baseline.requests_per_s);
    const flat = round(top.latency_ms.p99 / smallest.latency_ms.p99, 2);
    const p99s = SIZES.map((s) => `${bySize[s]!.latency_ms.p99} ms at ${s.toLocaleString("en-US")}`).join(
      ", ",
    );
    console.log(`  p99: ${p99s}`);
    report(
      "list-posts",
      options,
      [
        {
          what: `GET /posts?limit=100 with ${sizeName(largest.size)}, ${CONNECTIONS} connections`,
          figure: top.requests_per_s,
          unit: "req/s",
          baseline: { what: BARE, figure: baseline.requests_per_s, unit: "req/s" },
          ratio,
          ratio_as: "percent",
          goal: "≥ 10 %",
          met: ratio >= THROUGHPUT_GOAL,
        },
        {
          what: `p99 latency of that list (${p99s})`,
          figure: top.latency_ms.p99,
          unit: "ms",
          baseline: { what: `p99 with ${sizeName(SIZES[0]!)}`, figure: smallest.latency_ms.p99, unit: "ms" },
          ratio: flat,
          ratio_as: "times",
          goal: `flat (≤ ${FLAT_GOAL}×)`,
          met: flat <= FLAT_GOAL,
        },
      ],
      {
        connections: CONNECTIONS,
        sizes: SIZES,
        p99_ms_by_size: Object.fromEntries(SIZES.map((s) => [s, bySize[s]!.latency_ms.p99])),
        requests_per_s_by_size: Object.fromEntries(SIZES.map((s) => [s, bySize[s]!.requests_per_s])),
        server_cpu_us_per_request_by_size: Object.fromEntries(
          SIZES.map((s) => [s, bySize[s]!.server_cpu_us_per_request]),
        ),
        ...result,
      },
    );
  } finally {
    await stopAll(...servers, bare);
  }
});

/** The list really is a full page of 100 posts (a shorter one would flatter the figure). */
async function checkFullPage(url: string, apiKey: string): Promise<void> {
  const response = await fetch(`${url}/api/v1/posts?limit=100`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  const page = (await response.json()) as { data?: unknown[] };
  if (response.status !== 200 || page.data?.length !== 100) {
    throw new Error(`GET /posts?limit=100 answered ${response.status} with ${page.data?.length} posts`);
  }
}

/** The baseline's body: one post as GET /posts/{id} answers it. */
async function onePostJson(url: string, apiKey: string): Promise<string> {
  const headers = { authorization: `Bearer ${apiKey}` };
  const page = (await (await fetch(`${url}/api/v1/posts?limit=1`, { headers })).json()) as {
    data: { id: string }[];
  };
  return (await fetch(`${url}/api/v1/posts/${page.data[0]!.id}`, { headers })).text();
}
