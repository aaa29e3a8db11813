import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Store } from "@socialpub/core";
import type { PostgresStore } from "../store/postgres/postgres-store.ts";
import { openSqliteStore, type SqliteStore, type Synchronous } from "../store/sqlite/sqlite-store.ts";
import { CliError, describeFailure } from "./errors.ts";

/** `--db postgres://…` (or postgresql://) selects the PostgreSQL store; anything else is a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** What `--db` named, opened: a SQLite file (one server) or a PostgreSQL database (any number). */
export type OpenedStore =
  | { kind: "sqlite"; store: SqliteStore; description: string }
  | { kind: "postgres"; store: PostgresStore; description: string };

export interface OpenStoreOptions {
  synchronous?: Synchronous;
  /** SQLite: checkpoint the WAL in the background (what the server does). */
  checkpointInBackground?: boolean;
  /** PostgreSQL: connections this process keeps at most. */
  poolSize?: number;
  /** PostgreSQL: longest a statement may run. */
  statementTimeoutMs?: number;
  /** PostgreSQL: how long a claim of a post lasts before another instance may take it over. */
  publishLeaseMs?: number;
}

/**
 * Opens the database, turning every reason it cannot be opened into one line that names it (a
 * PostgreSQL URL without its password). The server's SQLite store (`start`) checkpoints its WAL in the
 * background; an admin command's does not need to.
 */
export async function openStore(db: string, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  if (isPostgresUrl(db)) {
    // Loaded only when asked for: a SQLite command does not pay for the driver's import.
    const { describeUrl, openPostgresStore } = await import("../store/postgres/postgres-store.ts");
    try {
      const store = await openPostgresStore(db, {
        ...(options.poolSize !== undefined && { poolSize: options.poolSize }),
        ...(options.statementTimeoutMs !== undefined && { statementTimeoutMs: options.statementTimeoutMs }),
        ...(options.publishLeaseMs !== undefined && { publishLeaseMs: options.publishLeaseMs }),
      });
      return { kind: "postgres", store, description: store.description };
    } catch (error) {
      throw new CliError(`cannot open database ${describeUrl(db)}: ${describeFailure(error)}`);
    }
  }
  try {
    const store = openSqliteStore(db, {
      ...(options.synchronous && { synchronous: options.synchronous }),
      ...(options.checkpointInBackground !== undefined && {
        checkpointInBackground: options.checkpointInBackground,
      }),
    });
    return { kind: "sqlite", store, description: store.path };
  } catch (error) {
    throw new CliError(`cannot open database ${db}: ${describeFailure(error)}`);
  }
}

/**
 * Runs `work` with an existing database open, and closes it afterwards whatever happens. Only `start`
 * creates a SQLite file: an administration command given a path that does not exist (a typo in --db, a
 * command run from another folder) would otherwise make an empty one and act on it, and its user or
 * key would land where no server reads it. A PostgreSQL database is made by its administrator; its
 * tables are made by whichever command opens it first.
 */
export async function withStore<T>(db: string, work: (store: Store) => Promise<T>): Promise<T> {
  if (!isPostgresUrl(db) && db !== ":memory:" && !existsSync(db)) {
    throw new CliError(
      `cannot open database ${resolve(db)}: it does not exist; check --db (or SOCIALPUB_DB), or create it by running "socialpub-server start --db ${db}" once.`,
    );
  }
  const { store } = await openStore(db);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
