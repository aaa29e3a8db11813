// How much the typed client costs per request over a bare `undici.request`, both talking to the same
// local server (in its own thread) in the same run. The client adds headers, the retry loop, a timeout
// per attempt and validation of every answer against the contract; the baseline sends the request and
// parses the JSON. The figure is the CPU time of the calling thread per request (the server's thread is
// not counted), the client's over the baseline's; wall-clock ratios are in the JSON details.
// Goal: at most 1.2×.
//
//   pnpm bench client-overhead [--quick]    # 21 rounds of 1000 requests per side (--quick: 1 of 200)
//
// On a machine shared with other work the CPU time of one round moves by up to 2× from one round to the
// next, on both sides alike. So each round measures both sides back to back (in alternating order), the
// ratio is taken within each round, and the figure is the median of those ratios: a slow stretch of the
// machine raises both halves of a round, not the ratio. The µs figures are each side's median round.
//
// Traffic goes only to 127.0.0.1; the run is bounded by the request counts.

import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { Agent, request } from "undici";
import { type CurrentUser, SocialPublishClient } from "../packages/core/src/index.ts";
import { benchOptions, count } from "./lib/options.ts";
import { type ResultRow, report } from "./lib/result.ts";

const GOAL = 1.2;
const options = benchOptions();
const ROUNDS = count(options, 21, 1);
const REQUESTS = count(options, 1000, 200);
const CONCURRENCY = 8;
// Enough for V8 to have compiled both sides' paths before the first measured round: with 500, CPU per request
// still fell round after round on both sides.
const WARMUP = count(options, 5000, 200);

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

const server = new Worker(new URL("./lib/client-overhead-server.ts", import.meta.url), {
  workerData: { body },
});
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

/** The median, over rounds, of the client's figure over the baseline's in the same round. */
const pairedRatio = (raw: Round[], typed: Round[], key: keyof Round) =>
  median(typed.map((round, i) => round[key] / raw[i]![key]));

const summary = Object.entries(results).map(([label, bySide]) => {
  const raw = bySide["undici.request"];
  const typed = bySide["client.me()"];
  const wall = { baseline: perRequestUs(raw, "wall_ms"), client: perRequestUs(typed, "wall_ms") };
  const cpu = { baseline: perRequestUs(raw, "cpu_ms"), client: perRequestUs(typed, "cpu_ms") };
  return {
    label,
    baseline_wall_us_per_request: Math.round(wall.baseline),
    client_wall_us_per_request: Math.round(wall.client),
    wall_ratio: Number(pairedRatio(raw, typed, "wall_ms").toFixed(2)),
    baseline_cpu_us_per_request: Math.round(cpu.baseline),
    client_cpu_us_per_request: Math.round(cpu.client),
    cpu_ratio: Number(pairedRatio(raw, typed, "cpu_ms").toFixed(2)),
  };
});

console.log(
  `client overhead: ${ROUNDS} rounds × ${REQUESTS} requests per side, median of the rounds' ratios (Node ${process.version})`,
);
const rows: ResultRow[] = summary.map((row) => ({
  what: `client.me() over undici.request, ${row.label}`,
  figure: row.client_cpu_us_per_request,
  unit: "µs CPU/request",
  baseline: { what: "undici.request", figure: row.baseline_cpu_us_per_request, unit: "µs CPU/request" },
  ratio: row.cpu_ratio,
  ratio_as: "times",
  goal: `≤ ${GOAL}×`,
  met: row.cpu_ratio <= GOAL,
}));
for (const row of summary) {
  console.log(
    `  ${row.label}: wall ${row.baseline_wall_us_per_request} → ${row.client_wall_us_per_request} µs (${row.wall_ratio}×)`,
  );
}
report("client-overhead", options, rows, {
  rounds: ROUNDS,
  requests_per_round: REQUESTS,
  results: summary,
  rounds_detail: results,
});
