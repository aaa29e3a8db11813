import { StatementSync } from "node:sqlite";

/** Per statement text: how often it ran and the µs it took while the timer was on. */
export type StatementTimes = Map<string, { runs: number; us: number }>;

/**
 * Times every SQLite statement this process runs (node:sqlite's run/get/all) while `on` is true, by
 * statement text. Installed once per process: it wraps StatementSync's prototype.
 */
export function timeStatements(): { times: StatementTimes; on: boolean } {
  const timer = { times: new Map() as StatementTimes, on: false };
  for (const method of ["run", "get", "all"] as const) {
    const original = StatementSync.prototype[method] as (...args: unknown[]) => unknown;
    (StatementSync.prototype as unknown as Record<string, unknown>)[method] = function (
      this: StatementSync,
      ...args: unknown[]
    ) {
      const start = performance.now();
      const result = original.apply(this, args);
      if (timer.on) {
        const sql = this.sourceSQL.replace(/\s+/g, " ").slice(0, 100);
        const entry = timer.times.get(sql) ?? { runs: 0, us: 0 };
        entry.runs++;
        entry.us += (performance.now() - start) * 1000;
        timer.times.set(sql, entry);
      }
      return result;
    };
  }
  return timer;
}

/**
 * Prints one line per statement, most time first, per unit of work (`units` of them were measured),
 * then the totals and the thread's CPU per unit.
 */
export function printStatementTimes(
  times: StatementTimes,
  units: number,
  cpu: NodeJS.CpuUsage,
  per: string,
  how: string,
): void {
  let runs = 0;
  let us = 0;
  for (const [sql, entry] of [...times].sort((a, b) => b[1].us - a[1].us)) {
    runs += entry.runs;
    us += entry.us;
    console.log(
      `${(entry.runs / units).toFixed(2).padStart(6)} × ${(entry.us / units).toFixed(1).padStart(7)} µs  ${sql}`,
    );
  }
  const cpuUs = (cpu.user + cpu.system) / units;
  console.log(
    `per ${per}: ${(runs / units).toFixed(1)} statements, ${(us / units).toFixed(0)} µs in SQLite, ${cpuUs.toFixed(0)} µs of CPU in all (this thread; ${how})`,
  );
}
