// GET /posts?limit=100 (a full page: 100 posts with their reach and engagement) over 50 keep-alive
// connections, with 1 000, then 10 000, then 100 000 posts stored for the user. The reference server
// (SQLite file, its own process) runs throughout; posts are added between phases straight into the
// database. At 100 000 posts it is compared with bare node:http answering one post JSON, in the same run.
// Goals: at 100 000 posts at least 10 % of the bare server's requests per second, and p99 latency flat
// from 1 000 to 100 000 posts (p99 at 100 000 at most 1.5× p99 at 1 000).
//
//   pnpm bench list-posts [--quick]
import { join } from "node:path";
import { compare, medianByThroughput, ratioOf } from "./lib/compare.ts";
import { type LoadResult, load } from "./lib/load.ts";
import { benchOptions, count, seconds } from "./lib/options.ts";
import { report, round } from "./lib/result.ts";
import { createDatabase, insertPublishedPosts, resetMonthlyCalls } from "./lib/seed.ts";
import { startBareServer, startServiceServer, stopAll } from "./lib/servers.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const THROUGHPUT_GOAL = 0.1;
const FLAT_GOAL = 1.5;
const CONNECTIONS = 50;
const options = benchOptions();
const SIZES = options.quick ? [100, 1_000, 2_000] : [1_000, 10_000, 100_000];
const SECONDS = seconds(options, 5);
const ROUNDS = count(options, 3, 1);

await withTempDir(async (dir) => {
  const dbPath = join(dir, "bench.db");
  // One user holds the posts; every connection lists them (its monthly call counter is reset between
  // rounds, see resetMonthlyCalls).
  const [user] = await createDatabase(dbPath, 1);
  const server = await startServiceServer(dbPath);
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
    const request = () => ({
      method: "GET" as const,
      path: "/api/v1/posts?limit=100",
      headers: { authorization: `Bearer ${user!.apiKey}` },
    });
    const bySize: Record<number, LoadResult> = {};
    const roundsBySize: Record<number, LoadResult[]> = {};
    let stored = 0;
    let baseline: LoadResult | undefined;
    let compared: Awaited<ReturnType<typeof compare>> | undefined;
    for (const size of SIZES) {
      const started = performance.now();
      insertPublishedPosts(dbPath, user!.userId, size - stored);
      stored = size;
      console.log(
        `GET /posts?limit=100 with ${size.toLocaleString("en-US")} posts stored (added in ${Math.round(performance.now() - started)} ms), ${CONNECTIONS} connections`,
      );
      await checkFullPage(server.url, user!.apiKey);
      if (size === SIZES.at(-1)) {
        if (!bare) bare = await startBareServer(await onePostJson(server.url, user!.apiKey));
        compared = await compare({
          contenders: [
            { name: "bare node:http", server: bare },
            { name: "socialpub server", server },
          ],
          request,
          connections: CONNECTIONS,
          seconds: SECONDS,
          warmupSeconds: seconds(options, 2),
          rounds: ROUNDS,
          beforeRound: () => resetMonthlyCalls(dbPath),
        });
        roundsBySize[size] = compared.rounds["socialpub server"]!;
        bySize[size] = compared.median["socialpub server"]!;
        baseline = compared.median["bare node:http"]!;
      } else {
        resetMonthlyCalls(dbPath);
        await load({ url: server.url, connections: CONNECTIONS, seconds: seconds(options, 2), request });
        const rounds: LoadResult[] = [];
        for (let r = 0; r < ROUNDS; r++) {
          resetMonthlyCalls(dbPath);
          const result = await load({ url: server.url, connections: CONNECTIONS, seconds: SECONDS, request });
          console.log(
            `    socialpub server: ${result.requests_per_s.toLocaleString("en-US")} req/s, p99 ${result.latency_ms.p99} ms`,
          );
          rounds.push(result);
        }
        roundsBySize[size] = rounds;
        bySize[size] = medianByThroughput(rounds);
      }
    }

    const smallest = bySize[SIZES[0]!]!;
    const largest = bySize[SIZES.at(-1)!]!;
    const ratio = ratioOf(largest.requests_per_s, baseline!.requests_per_s);
    const flat = round(largest.latency_ms.p99 / smallest.latency_ms.p99, 2);
    const sizes = SIZES.map((s) => s.toLocaleString("en-US"));
    console.log(
      `  p99: ${SIZES.map((s, i) => `${sizes[i]} posts ${bySize[s]!.latency_ms.p99} ms`).join(", ")}`,
    );
    report(
      "list-posts",
      options,
      [
        {
          what: `GET /posts?limit=100 with ${sizes.at(-1)} posts, ${CONNECTIONS} connections`,
          figure: largest.requests_per_s,
          unit: "req/s",
          baseline: { what: "bare node:http", figure: baseline!.requests_per_s, unit: "req/s" },
          ratio,
          ratio_as: "percent",
          goal: "≥ 10 %",
          met: ratio >= THROUGHPUT_GOAL,
        },
        {
          what: `p99 latency of that list with ${sizes.at(-1)} posts (${SIZES.map((s) => `${bySize[s]!.latency_ms.p99} ms at ${s.toLocaleString("en-US")}`).join(", ")})`,
          figure: largest.latency_ms.p99,
          unit: "ms",
          baseline: { what: `p99 with ${sizes[0]} posts`, figure: smallest.latency_ms.p99, unit: "ms" },
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
        rounds_by_size: roundsBySize,
        baseline_rounds: compared?.rounds["bare node:http"],
      },
    );
  } finally {
    await stopAll(server, bare);
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
