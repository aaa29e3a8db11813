import { readdirSync, readFileSync } from "node:fs";
import postgres from "postgres";
import type { ThrowawayCluster } from "../../packages/server/test/support/postgres-cluster.ts";

/**
 * What the database did for a stretch of load, read from the cluster itself: the statements the
 * servers sent and how long PostgreSQL spent executing them (pg_stat_statements), the explicit
 * transactions among them (their BEGINs: pg_stat_statements misses most COMMITs the driver sends), and the CPU time of every process of the cluster (from
 * /proc, so parsing, planning, locking, WAL and the protocol are in it too). Divided by the requests
 * answered, these are the per-request database costs docs/performance.md scales on paper.
 */
export interface DatabaseWork {
  /** Statements other than BEGIN/COMMIT/ROLLBACK. */
  statements: number;
  /** Explicit transactions (their BEGINs; a statement outside one is a transaction of its own). */
  transactions: number;
  /** Time spent executing every statement, BEGIN and COMMIT included, in ms. */
  exec_ms: number;
  /** CPU time of the postmaster and all its processes, in µs. */
  cpu_us: number;
  /** Each statement's calls and execution time so far, by its normalised text (BEGIN/COMMIT left out). */
  each: Map<string, { calls: number; exec_ms: number }>;
}

/** A statement's share of the work between two readings. */
export interface StatementWork {
  query: string;
  calls: number;
  exec_ms: number;
}

export interface DatabaseWorkMeter {
  /** The totals so far for one database; subtract two readings for the work between them. */
  read(database: string): Promise<DatabaseWork>;
  close(): Promise<void>;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of a process, in µs; the command name may hold spaces, so fields count from its ")". */
function cpuOf(pid: number): { ppid: number; cpu_us: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the name: state(0) ppid(1) … utime(11) stime(12).
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { ppid: Number(fields[1]), cpu_us: (ticks * 1_000_000) / TICKS_PER_SECOND };
  } catch {
    return null; // the process ended between the listing and the read
  }
}

function clusterCpuUs(postmaster: number): number {
  let total = cpuOf(postmaster)?.cpu_us ?? 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const proc = cpuOf(Number(entry));
    if (proc?.ppid === postmaster) total += proc.cpu_us;
  }
  return total;
}

/**
 * Loads pg_stat_statements into the cluster (a restart: it must be preloaded) and answers a meter. Call
 * it before any server connects.
 */
export async function meterDatabaseWork(cluster: ThrowawayCluster): Promise<DatabaseWorkMeter> {
  const setup = postgres(cluster.adminUrl, { max: 1, onnotice: () => {} });
  try {
    await setup`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`;
  } finally {
    await setup.end({ timeout: 1 });
  }
  await cluster.restart();
  // The meter reads from the maintenance database, so its own statements are not counted in another.
  const sql = postgres(cluster.adminUrl, { max: 1, onnotice: () => {} });
  await sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
  const [backend] = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  const postmaster = cpuOf(backend!.pid)!.ppid;
  return {
    async read(database) {
      const [row] = await sql<{ statements: string; transactions: string; exec_ms: number }[]>`
        SELECT
          coalesce(sum(calls) FILTER (WHERE NOT (query ILIKE ANY (ARRAY['begin%', 'commit%', 'rollback%']))), 0) AS statements,
          coalesce(sum(calls) FILTER (WHERE query ILIKE 'begin%'), 0) AS transactions,
          coalesce(sum(total_exec_time), 0)::float8 AS exec_ms
        FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = ${database})`;
      return {
        statements: Number(row!.statements),
        transactions: Number(row!.transactions),
        exec_ms: row!.exec_ms,
        cpu_us: clusterCpuUs(postmaster),
        each: await eachStatement(sql, database),
      };
    },
    close: () => sql.end({ timeout: 1 }),
  };
}

async function eachStatement(
  sql: postgres.Sql,
  database: string,
): Promise<Map<string, { calls: number; exec_ms: number }>> {
  const rows = await sql<{ query: string; calls: string; exec_ms: number }[]>`
    SELECT query, sum(calls) AS calls, sum(total_exec_time)::float8 AS exec_ms
    FROM pg_stat_statements
    WHERE dbid = (SELECT oid FROM pg_database WHERE datname = ${database})
      AND NOT (query ILIKE ANY (ARRAY['begin%', 'commit%', 'rollback%']))
    GROUP BY query`;
  return new Map(rows.map((r) => [r.query, { calls: Number(r.calls), exec_ms: r.exec_ms }]));
}

export function workBetween(before: DatabaseWork, after: DatabaseWork): DatabaseWork {
  const each = new Map<string, { calls: number; exec_ms: number }>();
  for (const [query, now] of after.each) {
    const then = before.each.get(query) ?? { calls: 0, exec_ms: 0 };
    if (now.calls > then.calls)
      each.set(query, { calls: now.calls - then.calls, exec_ms: now.exec_ms - then.exec_ms });
  }
  return {
    statements: after.statements - before.statements,
    transactions: after.transactions - before.transactions,
    exec_ms: after.exec_ms - before.exec_ms,
    cpu_us: after.cpu_us - before.cpu_us,
    each,
  };
}

/** The statements that ran most between two readings, most calls first, their text cut to `width`. */
export function busiestStatements(work: DatabaseWork, most = 10, width = 120): StatementWork[] {
  return [...work.each]
    .sort((a, b) => b[1].calls - a[1].calls)
    .slice(0, most)
    .map(([query, { calls, exec_ms }]) => ({
      query: query.replace(/\s+/g, " ").slice(0, width),
      calls,
      exec_ms: Math.round(exec_ms),
    }));
}
