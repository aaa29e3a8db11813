import postgres from "postgres";
import { inject } from "vitest";

let made = 0;

/** A new, empty database in the run's cluster; answers its URL. */
export async function newDatabase(prefix = "t"): Promise<string> {
  const adminUrl = inject("postgresAdminUrl");
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const name = `${prefix}_${process.pid}_${++made}_${Math.random().toString(36).slice(2, 8)}`
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_");
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end({ timeout: 1 });
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const cleaners = new Map<string, postgres.Sql>();

/**
 * Empties every table of the socialpub schema in `url` (the migrations stay applied): a fresh store
 * for each test costs a few DELETEs instead of a CREATE DATABASE. The connection stays open for the
 * next call (the test process ends it).
 */
export async function emptyDatabase(url: string): Promise<void> {
  let sql = cleaners.get(url);
  if (!sql) {
    sql = postgres(url, { max: 1, onnotice: () => {}, idle_timeout: 5 });
    cleaners.set(url, sql);
  }
  const tables = await sql<{ name: string }[]>`
    SELECT tablename AS name FROM pg_tables
    WHERE schemaname = current_schema() AND tablename <> 'socialpub_migrations'`;
  // Tables this small empty faster by DELETE than by TRUNCATE, which makes new files for each.
  await sql.unsafe(tables.map((t) => `DELETE FROM "${t.name}";`).join("\n"));
}

/**
 * A store for one test that is really the suite's store, emptied first: `close()` leaves the pool
 * open for the next test (the suite closes it in afterAll). Opening a pool per test would cost more
 * than the test.
 */
export function reusedStore<S extends { close(): Promise<void> }>(store: S): S {
  return new Proxy(store, {
    get(target, property) {
      if (property === "close") return async () => {};
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
