import type { Sql } from "postgres";
import type { Migration } from "../migrations/types.ts";
import { POSTGRES_MIGRATIONS } from "./migrations/index.ts";

/** The database was migrated by a newer server than this one. */
export class PostgresSchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(
      `the database has schema version ${found}, newer than the ${known} this server knows; upgrade socialpub-server on this instance (instances of one database must run the same version or newer)`,
    );
    this.name = "PostgresSchemaTooNewError";
  }
}

/**
 * The key of the advisory lock that migrations take: any 64-bit number no one else uses on this
 * database ("socialpub" in ASCII, in hex, cut to fit).
 */
const MIGRATION_LOCK = 0x736f6369616c70n;

/**
 * Brings the schema up to the newest migration, in one transaction under an advisory lock: instances
 * that start together wait for the first, which migrates; the others then find nothing left to do.
 * The applied versions are rows of `socialpub_migrations`. Answers the schema version.
 */
export async function migratePostgres(
  sql: Sql,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
): Promise<number> {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  const latest = migrations.length;
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK.toString()}::bigint)`;
    await tx`CREATE TABLE IF NOT EXISTS socialpub_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`;
    const [row] = await tx<
      { version: number | null }[]
    >`SELECT max(version) AS version FROM socialpub_migrations`;
    const found = row?.version ?? 0;
    if (found > latest) throw new PostgresSchemaTooNewError(found, latest);
    for (const migration of migrations.slice(found)) {
      await tx.unsafe(migration.sql);
      await tx`INSERT INTO socialpub_migrations (version, name) VALUES (${migration.version}, ${migration.name})`;
    }
  });
  return latest;
}
