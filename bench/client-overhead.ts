// How much the typed client costs per request over a bare `undici.request`, both talking to the same
// local server (in its own thread) in the same run. The client adds headers, an Idempotency-Key on writes, the retry loop,
// a timeout per attempt and zod validation of every answer; the baseline sends the request and parses
// the JSON. Prints the ratio (client time / baseline time) and writes JSON to bench/results/.
//
//   node bench/client-overhead.ts                 # 5 rounds of 2000 requests per side
//   BENCH_ROUNDS=2 BENCH_REQUESTS=500 node bench/client-overhead.ts
//
// Traffic goes only to 127.0.0.1; the run is bounded by the request counts.

import { once } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { Worker } from "node:worker_threads";
import { Agent, request } from "undici";
import { type CurrentUser, SocialPublishClient } from "../packages/core/src/index.ts";

const ROUNDS = positiveInt(process.env.BENCH_ROUNDS, 5);
const REQUESTS = positiveInt(process.env.BENCH_REQUESTS, 2000);
const CONCURRENCY = positiveInt(process.env.BENCH_CONCURRENCY, 8);
const WARMUP = Math.min(500, REQUESTS);

const user: CurrentUser = {
  id: "usr_01JD3Z6Q1M8W5V0K9T2R4Y7B3E",
  email: "bench@example.com",
  name: "Bench",
  studio: "Bench Studio",
  plan: "studio",
  limits: { profiles: 50, posts_per_month: null, api_calls_per_month: 100000 },
  usage: { api_calls_this_month: 1 },
};
const body = JSON.stringify(user);

const server = new Worker(new URL("./client-overhead-server.ts", import.meta.url), { workerData: { body } });
const [origin] = (await once(server, "message")) as [string];
const baseUrl = `${origin}/api/v1`;

const agent = new Agent({ keepAliveTimeout: 10_000 });
const client = new SocialPublishClient({ apiKey: "sp_test_benchbenchbenchbenchbenchbench00", baseUrl });

const sides = {
  "undici.request": async () => {
    const response = await request(`${baseUrl}/me`, {
      dispatcher: agent,
      headers: {
        authorization: "Bearer sp_test_benchbenchbenchbenchbenchbench00",
        accept: "application/json",
      },
    });
    JSON.parse(await response.body.text());
  },
  "client.me()": async () => {
    await client.me();
  },
} as const;
type Side = keyof typeof sides;

interface Round {
  /** Wall-clock time of the round. */
  wall_ms: number;
  /** CPU time this thread spent in the round: the work each side does, less sensitive to other load. */
  cpu_ms: number;
}

/** Sends `count` requests, `concurrency` at a time. */
async function run(send: () => Promise<void>, count: number, concurrency: number): Promise<Round> {
  let next = 0;
  const cpu = process.threadCpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        await send();
      }
    }),
  );
  const wall = performance.now() - start;
  const used = process.threadCpuUsage(cpu);
  return { wall_ms: wall, cpu_ms: (used.user + used.system) / 1000 };
}

const results: Record<string, Record<Side, Round[]>> = {};
for (const concurrency of [1, CONCURRENCY]) {
  const label = `concurrency ${concurrency}`;
  results[label] = { "undici.request": [], "client.me()": [] };
  for (const side of Object.keys(sides) as Side[]) await run(sides[side], WARMUP, concurrency);
  // Rounds alternate which side goes first, so drift in the machine's load hits both alike.
  for (let round = 0; round < ROUNDS; round++) {
    const order = (Object.keys(sides) as Side[])[round % 2 === 0 ? "slice" : "reverse"]();
    for (const side of order) results[label]![side].push(await run(sides[side], REQUESTS, concurrency));
  }
}

await client.close();
await agent.close();
server.postMessage("stop");
await once(server, "exit");

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const perRequestUs = (rounds: Round[], key: keyof Round) =>
  (median(rounds.map((r) => r[key])) / REQUESTS) * 1000;

const summary = Object.entries(results).map(([label, bySide]) => {
  const raw = bySide["undici.request"];
  const typed = bySide["client.me()"];
  const wall = { baseline: perRequestUs(raw, "wall_ms"), client: perRequestUs(typed, "wall_ms") };
  const cpu = { baseline: perRequestUs(raw, "cpu_ms"), client: perRequestUs(typed, "cpu_ms") };
  return {
    label,
    baseline_wall_us_per_request: Math.round(wall.baseline),
    client_wall_us_per_request: Math.round(wall.client),
    wall_ratio: Number((wall.client / wall.baseline).toFixed(2)),
    baseline_cpu_us_per_request: Math.round(cpu.baseline),
    client_cpu_us_per_request: Math.round(cpu.client),
    cpu_ratio: Number((cpu.client / cpu.baseline).toFixed(2)),
  };
});

console.log(
  `client overhead: ${ROUNDS} rounds × ${REQUESTS} requests per side, median round (Node ${process.version})`,
);
console.log(
  "                  undici.request   client.me()   ratio   (wall-clock; CPU of the calling thread)",
);
for (const row of summary) {
  const cell = (us: number) => `${String(us).padStart(5)} µs`;
  console.log(
    `  ${row.label.padEnd(15)} ${cell(row.baseline_wall_us_per_request)}   ${cell(row.client_wall_us_per_request)}   ` +
      `${row.wall_ratio.toFixed(2)}×  wall`,
  );
  console.log(
    `  ${"".padEnd(15)} ${cell(row.baseline_cpu_us_per_request)}   ${cell(row.client_cpu_us_per_request)}   ` +
      `${row.cpu_ratio.toFixed(2)}×  cpu`,
  );
}

const resultsDir = new URL("./results/", import.meta.url);
mkdirSync(resultsDir, { recursive: true });
const file = new URL(`client-overhead-${new Date().toISOString().replace(/[:.]/g, "-")}.json`, resultsDir);
writeFileSync(
  file,
  `${JSON.stringify(
    {
      benchmark: "client-overhead",
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model ?? "unknown",
      cores: cpus().length,
      rounds: ROUNDS,
      requests_per_round: REQUESTS,
      results: summary,
      rounds_detail: results,
    },
    null,
    2,
  )}\n`,
);
console.log(`results written to ${file.pathname}`);

function positiveInt(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}
