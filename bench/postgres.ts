// The PostgreSQL store against SQLite, in one run: GET /posts/{id}, POST /posts (publish now to three
// networks) and 10 000 posts due at one instant, each on one server instance on PostgreSQL and on three
// instances sharing one database, with the same on one instance on a SQLite file as the baseline.
// PostgreSQL is a throwaway cluster started for the run (the tests' helper), with pg_stat_statements
// loaded so each figure comes with the database work behind it: statements and transactions per
// request, execution time per statement and the cluster's CPU per request (docs/performance.md scales
// instances on paper from these). There are no goals: on two cores the instances, the cluster and the
// load generator share the same CPUs, so the figures are reported as measured.
//
//   pnpm bench postgres [--quick]
//   BENCH_POSTGRES_BURST=2000 pnpm bench postgres   # fewer posts due at once
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import postgres from "postgres";
import { openPostgresStore } from "../packages/server/src/index.ts";
import { startThrowawayCluster } from "../packages/server/test/support/postgres-cluster.ts";
import { withProcessSlot } from "../test-support/process-slots.ts";
import type { ChildServer } from "./lib/child.ts";
import { type LoadRequest, load } from "./lib/load.ts";
import { benchOptions, count, seconds } from "./lib/options.ts";
import {
  type DatabaseWork,
  type DatabaseWorkMeter,
  meterDatabaseWork,
  workBetween,
} from "./lib/postgres-work.ts";
import { type ResultRow, report, round } from "./lib/result.ts";
import {
  BENCH_NETWORKS,
  type BenchUser,
  createDatabase,
  insertScheduledPosts,
  provisionBenchUsers,
} from "./lib/seed.ts";
import { insertScheduledPostsPostgres } from "./lib/seed-postgres.ts";
import { startServiceServer, stopAll } from "./lib/servers.ts";
import { withTempDir } from "./lib/temp-dir.ts";

const CONNECTIONS = 50;
const INSTANCES = 3;
const options = benchOptions();
const ROUND_SECONDS = seconds(options, 5);
const WARMUP_SECONDS = seconds(options, 2);
const ROUNDS = count(options, 3, 1);
/**
 * Posts due at one instant. BENCH_POSTGRES_BURST sets another number, for a machine too loaded to
 * publish 10,000 on PostgreSQL in reasonable time; the count is in every figure's text and result.
 */
const BURST = burstSize(process.env.BENCH_POSTGRES_BURST, count(options, 10_000, 500));

function burstSize(given: string | undefined, otherwise: number): number {
  if (given === undefined || given === "") return otherwise;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1) {
    throw new Error(`BENCH_POSTGRES_BURST must be a whole number of posts, at least 1; it is "${given}".`);
  }
  return n;
}
/** Time from setting the due instant to it: every instance must have started by then (on a loaded two-core machine one start took over 10 s). */
const START_MARGIN_MS = 20_000;

/** A server process, started inside a slot of the process bound (held until it is ready). */
const startServer = (database: string): Promise<ChildServer> =>
  withProcessSlot(() => startServiceServer(database));

/** A way of running the service: its processes, its database, and each connection's user and post. */
interface Setup {
  name: string;
  servers: ChildServer[];
  /** The PostgreSQL database's name, for the meter; null on SQLite. */
  database: string | null;
  users: BenchUser[];
  /** One published post per user, for GET /posts/{id}. */
  posts: string[];
}

interface MeasuredRound {
  requests_per_s: number;
  requests: number;
  latency_ms: { p50: number; p99: number };
  server_cpu_us_per_request: number;
  database: PerRequest | null;
}

/** The database's work per request (or per published post). */
interface PerRequest {
  statements: number;
  transactions: number;
  exec_us_per_statement: number;
  cpu_us: number;
}

function perRequest(work: DatabaseWork, requests: number): PerRequest {
  return {
    statements: round(work.statements / requests, 2),
    transactions: round(work.transactions / requests, 2),
    exec_us_per_statement: round((work.exec_ms * 1000) / Math.max(1, work.statements), 1),
    cpu_us: round(work.cpu_us / requests, 0),
  };
}

async function serverCpuUs(servers: ChildServer[]): Promise<number> {
  const stats = await Promise.all(servers.map((s) => s.stats()));
  return stats.reduce((sum, s) => sum + (s.counters.cpu_us ?? 0), 0);
}

/**
 * One round of load on a setup: the connections split evenly across its instances (as a load balancer
 * would), each connection acting as its own user.
 */
async function loadRound(
  setup: Setup,
  request: (setup: Setup, connection: number) => LoadRequest,
  secs: number,
  meter: DatabaseWorkMeter | null,
): Promise<MeasuredRound> {
  const cpuBefore = await serverCpuUs(setup.servers);
  const dbBefore = setup.database && meter ? await meter.read(setup.database) : null;
  const n = setup.servers.length;
  const results = await Promise.all(
    setup.servers.map((server, s) => {
      const share = Math.floor(CONNECTIONS / n) + (s < CONNECTIONS % n ? 1 : 0);
      const offset = s * Math.floor(CONNECTIONS / n) + Math.min(s, CONNECTIONS % n);
      return load({
        url: server.url,
        connections: share,
        seconds: secs,
        request: (i) => request(setup, offset + i),
      });
    }),
  );
  const dbAfter = setup.database && meter ? await meter.read(setup.database) : null;
  const cpu = (await serverCpuUs(setup.servers)) - cpuBefore;
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  return {
    requests_per_s: results.reduce((sum, r) => sum + r.requests_per_s, 0),
    requests,
    // The slowest instance's percentiles.
    latency_ms: {
      p50: Math.max(...results.map((r) => r.latency_ms.p50)),
      p99: Math.max(...results.map((r) => r.latency_ms.p99)),
    },
    server_cpu_us_per_request: round(cpu / Math.max(1, requests), 0),
    database: dbBefore && dbAfter ? perRequest(workBetween(dbBefore, dbAfter), Math.max(1, requests)) : null,
  };
}

/** Warms every setup up, then measures ROUNDS rounds of each, alternating the order; the median round of each. */
async function compareSetups(
  setups: Setup[],
  request: (setup: Setup, connection: number) => LoadRequest,
  meter: DatabaseWorkMeter,
): Promise<{ median: Record<string, MeasuredRound>; rounds: Record<string, MeasuredRound[]> }> {
  for (const setup of setups) await loadRound(setup, request, WARMUP_SECONDS, null);
  const rounds: Record<string, MeasuredRound[]> = Object.fromEntries(setups.map((s) => [s.name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const setup of r % 2 === 0 ? setups : [...setups].reverse()) {
      const measured = await loadRound(setup, request, ROUND_SECONDS, meter);
      rounds[setup.name]!.push(measured);
      const db = measured.database;
      console.log(
        `  ${setup.name}: ${measured.requests_per_s} req/s, server ${measured.server_cpu_us_per_request} µs CPU/request` +
          (db
            ? `, database ${db.statements} statements, ${db.transactions} transactions, ${db.exec_us_per_statement} µs/statement, ${db.cpu_us} µs CPU per request`
            : ""),
      );
    }
  }
  const median = Object.fromEntries(
    Object.entries(rounds).map(([name, list]) => {
      const sorted = [...list].sort((a, b) => a.requests_per_s - b.requests_per_s);
      return [name, sorted[Math.floor(sorted.length / 2)]!];
    }),
  );
  return { median, rounds };
}

const getPost = (setup: Setup, i: number): LoadRequest => ({
  method: "GET",
  path: `/api/v1/posts/${setup.posts[i % CONNECTIONS]}`,
  headers: { authorization: `Bearer ${setup.users[i % CONNECTIONS]!.apiKey}` },
});

const createBody = JSON.stringify({
  caption: "Release 2.4 is out: faster uploads, a new scheduler view and fixes for the calendar export.",
  platforms: BENCH_NETWORKS,
});
const createPost = (setup: Setup, i: number): LoadRequest => ({
  method: "POST",
  path: "/api/v1/posts",
  headers: { authorization: `Bearer ${setup.users[i % CONNECTIONS]!.apiKey}` },
  body: createBody,
  // A fresh key per request, as the typed client sends one with every POST.
  setupRequest: (req) => ({ ...req, headers: { ...req.headers, "idempotency-key": randomUUID() } }),
});

/** A published post for each user, made through the API: what GET /posts/{id} reads. */
async function publishOnePostEach(server: ChildServer, users: BenchUser[]): Promise<string[]> {
  return Promise.all(
    users.map(async (user) => {
      const res = await fetch(`${server.url}/api/v1/posts`, {
        method: "POST",
        headers: { authorization: `Bearer ${user.apiKey}`, "content-type": "application/json" },
        body: createBody,
      });
      const body = (await res.json()) as { id: string; status: string };
      if (res.status !== 201 || body.status !== "published") {
        throw new Error(`POST /posts answered ${res.status}: ${JSON.stringify(body)}`);
      }
      return body.id;
    }),
  );
}

interface BurstResult {
  posts: number;
  instances: number;
  /** How long after the due instant the last instance was ready (0 when all were up in time). */
  started_late_ms: number;
  first_published_after_ms: number;
  all_published_after_ms: number;
  posts_per_second: number;
  /** The database's work per published post (PostgreSQL only). */
  database: PerRequest | null;
  /** CPU time the instances spent per published post, all of them together. */
  server_cpu_us_per_post: number;
  /** The machine's 1-minute load average when the last post was published (other work shares the cores). */
  load_1m: number;
  /** The same as the instances started. */
  load_1m_at_start: number;
}

/**
 * How long a burst may take before the run gives up: long enough for PostgreSQL on a loaded two-core
 * machine (one instance published about 20 posts a second at a load average of 20), short of hanging.
 */
const BURST_DEADLINE_MS = Math.max(120_000, BURST * 100);

/**
 * BURST posts due at one instant, written before the instances start, published by `instances`
 * processes on the database; when each post was published is read from the database afterwards.
 */
async function burst(
  kind: "sqlite" | "postgres",
  instances: number,
  make: () => Promise<{ location: string; database: string | null }>,
  meter: DatabaseWorkMeter,
): Promise<BurstResult> {
  const { location, database } = await make();
  // Written due far ahead, then all moved to one instant just before the instances start, so the
  // margin covers only their start.
  const farAhead = Date.now() + 86_400_000;
  let userId: string;
  if (kind === "sqlite") {
    userId = (await createDatabase(location, 1))[0]!.userId;
    insertScheduledPosts(location, userId, BURST, farAhead);
  } else {
    const store = await openPostgresStore(location, { poolSize: 1 });
    try {
      userId = (await provisionBenchUsers(store, 1))[0]!.userId;
    } finally {
      await store.close();
    }
    await insertScheduledPostsPostgres(location, userId, BURST, farAhead);
  }
  const dueAt = Date.now() + START_MARGIN_MS;
  await moveDueTime(kind, location, dueAt);
  const before = database ? await meter.read(database) : null;
  const servers = await Promise.all(Array.from({ length: instances }, () => startServer(location)));
  try {
    // On a machine too loaded to start them within the margin, the figure counts from when the last
    // one was ready (recorded as started_late_ms), not from a due instant no instance was up for.
    const startedLateMs = Math.max(0, Date.now() - dueAt);
    const cpuBefore = await serverCpuUs(servers);
    const loadAtStart = round(loadavg()[0]!, 2);
    const from = dueAt + startedLateMs;
    const published = kind === "sqlite" ? sqlitePublished(location) : postgresPublished(location);
    try {
      const deadline = from + BURST_DEADLINE_MS;
      for (;;) {
        const { count: done } = await published.read();
        if (done === BURST) break;
        if (Date.now() > deadline)
          throw new Error(`only ${done} of ${BURST} posts published within ${BURST_DEADLINE_MS / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const { first, last } = await published.read();
      const after = database ? await meter.read(database) : null;
      const cpu = (await serverCpuUs(servers)) - cpuBefore;
      return {
        posts: BURST,
        instances,
        started_late_ms: startedLateMs,
        first_published_after_ms: first - from,
        all_published_after_ms: last - from,
        posts_per_second: Math.round(BURST / (Math.max(1, last - first) / 1000)),
        database: before && after ? perRequest(workBetween(before, after), BURST) : null,
        server_cpu_us_per_post: round(cpu / BURST, 0),
        load_1m: round(loadavg()[0]!, 2),
        load_1m_at_start: loadAtStart,
      };
    } finally {
      await published.close();
    }
  } finally {
    await stopAll(...servers);
  }
}

async function moveDueTime(kind: "sqlite" | "postgres", location: string, dueAt: number): Promise<void> {
  if (kind === "sqlite") {
    const db = new DatabaseSync(location, { timeout: 5000 });
    try {
      db.prepare("UPDATE posts SET scheduled_at = ? WHERE status = 'scheduled'").run(dueAt);
    } finally {
      db.close();
    }
    return;
  }
  const sql = postgres(location, { max: 1, onnotice: () => {} });
  try {
    await sql`UPDATE posts SET scheduled_at = ${dueAt} WHERE status = 'scheduled'`;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

interface PublishedReader {
  read(): Promise<{ count: number; first: number; last: number }>;
  close(): Promise<void>;
}

function sqlitePublished(path: string): PublishedReader {
  const db = new DatabaseSync(path, { readOnly: true, timeout: 5000 });
  const query = db.prepare(
    "SELECT count(*) AS n, min(published_at) AS first, max(published_at) AS last FROM posts WHERE status = 'published'",
  );
  return {
    read: async () => {
      const row = query.get() as { n: number; first: number; last: number };
      return { count: Number(row.n), first: Number(row.first), last: Number(row.last) };
    },
    close: async () => db.close(),
  };
}

function postgresPublished(url: string): PublishedReader {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  return {
    read: async () => {
      const [row] = await sql<{ n: string; first: string | null; last: string | null }[]>`
        SELECT count(*) AS n, min(published_at) AS first, max(published_at) AS last
        FROM posts WHERE status = 'published'`;
      return { count: Number(row!.n), first: Number(row!.first), last: Number(row!.last) };
    },
    close: () => sql.end({ timeout: 1 }),
  };
}

const ratio = (figure: number, baseline: number) => round(figure / baseline, 2);

await withTempDir(async (dir) => {
  const cluster = await startThrowawayCluster();
  const meter = await meterDatabaseWork(cluster);
  const running: ChildServer[] = [];
  try {
    // The HTTP setups: SQLite on one instance, PostgreSQL on one and on three sharing one database.
    const sqlitePath = join(dir, "bench.db");
    const sqliteUsers = await createDatabase(sqlitePath, CONNECTIONS);
    const pgUrl = await cluster.createDatabase("bench");
    const pgName = new URL(pgUrl).pathname.slice(1);
    const pgStore = await openPostgresStore(pgUrl, { poolSize: 2 });
    const pgUsers = await provisionBenchUsers(pgStore, CONNECTIONS).finally(() => pgStore.close());
    const sqliteServer = await startServer(sqlitePath);
    running.push(sqliteServer);
    const pgServers = await Promise.all(Array.from({ length: INSTANCES }, () => startServer(pgUrl)));
    running.push(...pgServers);
    const sqlitePosts = await publishOnePostEach(sqliteServer, sqliteUsers);
    const pgPosts = await publishOnePostEach(pgServers[0]!, pgUsers);
    const SQLITE = "SQLite, 1 instance";
    const PG1 = "PostgreSQL, 1 instance";
    const PG3 = `PostgreSQL, ${INSTANCES} instances`;
    const setups: Setup[] = [
      { name: SQLITE, servers: [sqliteServer], database: null, users: sqliteUsers, posts: sqlitePosts },
      { name: PG1, servers: [pgServers[0]!], database: pgName, users: pgUsers, posts: pgPosts },
      { name: PG3, servers: pgServers, database: pgName, users: pgUsers, posts: pgPosts },
    ];

    console.log(`GET /posts/{id}, ${CONNECTIONS} connections`);
    const get = await compareSetups(setups, getPost, meter);
    console.log(`POST /posts publish now to ${BENCH_NETWORKS.length} networks, ${CONNECTIONS} connections`);
    const create = await compareSetups(setups, createPost, meter);
    await stopAll(...running.splice(0));

    console.log(`${BURST.toLocaleString("en-US")} posts due at one instant`);
    let bursts = 0;
    const sqliteBurst = await burst(
      "sqlite",
      1,
      async () => ({ location: join(dir, `burst-${++bursts}.db`), database: null }),
      meter,
    );
    const newPgDatabase = async () => {
      const url = await cluster.createDatabase("burst");
      return { location: url, database: new URL(url).pathname.slice(1) };
    };
    const pgBurst1 = await burst("postgres", 1, newPgDatabase, meter);
    const pgBurst3 = await burst("postgres", INSTANCES, newPgDatabase, meter);
    for (const [name, b] of [
      [SQLITE, sqliteBurst],
      [PG1, pgBurst1],
      [PG3, pgBurst3],
    ] as const) {
      console.log(
        `  ${name}: all published ${b.all_published_after_ms} ms after the instant (${b.posts_per_second} posts/s, load average ${b.load_1m_at_start} → ${b.load_1m}), instances ${b.server_cpu_us_per_post} µs CPU per post` +
          (b.database
            ? `, database ${b.database.statements} statements, ${b.database.transactions} transactions, ${b.database.exec_us_per_statement} µs/statement, ${b.database.cpu_us} µs CPU per post`
            : ""),
      );
    }

    const rows: ResultRow[] = [];
    const http = (what: string, result: typeof get) => {
      const baseline = result.median[SQLITE]!.requests_per_s;
      for (const name of [PG1, PG3]) {
        const figure = result.median[name]!.requests_per_s;
        rows.push({
          what: `${what}, ${name}`,
          figure,
          unit: "req/s",
          baseline: { what: SQLITE, figure: baseline, unit: "req/s" },
          ratio: ratio(figure, baseline),
          ratio_as: "times",
          goal: "—",
          met: null,
        });
      }
    };
    http(`GET /posts/{id}, ${CONNECTIONS} connections`, get);
    http(`POST /posts publish now to ${BENCH_NETWORKS.length} networks, ${CONNECTIONS} connections`, create);
    for (const [name, b] of [
      [PG1, pgBurst1],
      [PG3, pgBurst3],
    ] as const) {
      rows.push({
        what: `scheduler: ${BURST.toLocaleString("en-US")} posts due at one instant, all published, ${name} (load average ${b.load_1m}; SQLite's ${sqliteBurst.load_1m})`,
        figure: b.all_published_after_ms,
        unit: "ms",
        baseline: { what: SQLITE, figure: sqliteBurst.all_published_after_ms, unit: "ms" },
        // As the other rows read: above 1× is faster than SQLite.
        ratio: ratio(sqliteBurst.all_published_after_ms, b.all_published_after_ms),
        ratio_as: "times",
        goal: "—",
        met: null,
      });
    }
    report("postgres", options, rows, {
      connections: CONNECTIONS,
      instances: INSTANCES,
      get_post: get,
      create_post: create,
      many_due_at_once: { [SQLITE]: sqliteBurst, [PG1]: pgBurst1, [PG3]: pgBurst3 },
    });
  } finally {
    await stopAll(...running);
    await meter.close();
    await cluster.destroy();
  }
});
