import type { Store } from "@socialpub/core";
import { openPostgresStore, openSqliteStore } from "@socialpub/server";
import { inject } from "vitest";
import { newDatabase as newPostgresDatabase } from "../../packages/server/test/postgres/support/databases.ts";
import { tempDir } from "../../packages/server/test/support/temp-dir.ts";

/** The store a run of the suite checks: the project (vitest.config.ts or vitest.postgres.config.ts) says. */
export type StoreKind = "sqlite" | "postgres";

/** The keys a run's user holds: test keys publish to the sandbox, live keys to the networks' local peers. */
export type KeysKind = "test" | "live";

declare module "vitest" {
  export interface ProvidedContext {
    reliabilityStore: StoreKind;
    reliabilityKeys?: KeysKind;
  }
}

export const STORE: StoreKind = inject("reliabilityStore");
export const KEYS: KeysKind = inject("reliabilityKeys") ?? "test";
export const STORE_NAME = `${STORE === "postgres" ? "PostgreSQL" : "SQLite"}${KEYS === "live" ? " (live keys)" : ""}`;

/**
 * How many rounds (or runs) a scenario makes: the first figure on SQLite, the second on PostgreSQL,
 * where each request costs a round trip to the cluster on the same two cores and a scenario at the
 * SQLite count would add minutes to CI for no new kind of fault; the third with live keys, where every
 * post publishes to the networks' peers and the networks' own pacing (X: 100 posts per 15 minutes,
 * Telegram: 20 a minute) bounds how many a run may make (docs/testing.md lists them).
 */
export function perStore(sqlite: number, postgres: number, live = sqlite): number {
  if (KEYS === "live") return live;
  return STORE === "postgres" ? postgres : sqlite;
}

/**
 * How long a post claimed by a killed server stays claimed on PostgreSQL before a running one takes it
 * over (`--publish-lease-ms`). SQLite has one server per file: a restarted one releases what it finds
 * interrupted at once.
 */
export const PUBLISH_LEASE_MS = 3000;

/** A database of the store under test: a file in a folder of its own, or a new database in the run's cluster. */
export interface TestDatabase {
  /** What `--db` takes: the SQLite file's path or the PostgreSQL URL. */
  location: string;
  remove(): void;
}

export async function newTestDatabase(name: string): Promise<TestDatabase> {
  if (STORE === "postgres") {
    // The cluster (and every database in it) is removed when the run ends.
    return { location: await newPostgresDatabase(name.replace(/\W/g, "_")), remove: () => {} };
  }
  const dir = tempDir("socialpub-reliability-");
  return { location: dir.file(`${name}.db`), remove: dir.remove };
}

/** Opens the store on a database made by `newTestDatabase`, as `socialpub-server start` would. */
export async function openTestStore(location: string): Promise<Store & { close(): Promise<void> }> {
  if (STORE === "postgres") {
    return openPostgresStore(location, { poolSize: 8, publishLeaseMs: PUBLISH_LEASE_MS });
  }
  return openSqliteStore(location);
}

/** The options a server process is started with on that database. */
export function databaseArgs(location: string): string[] {
  return STORE === "postgres"
    ? ["--db", location, "--publish-lease-ms", String(PUBLISH_LEASE_MS)]
    : ["--db", location];
}
