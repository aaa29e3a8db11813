import type { DatabaseSync } from "node:sqlite";
import { MIGRATIONS, type Migration } from "./migrations/index.ts";

/** The database was written by a newer version of the server than this one. */
export class SchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(
      `the database has schema version ${found}, newer than the ${known} this server knows; upgrade socialpub-server`,
    );
    this.name = "SchemaTooNewError";
  }
}

function userVersion(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA user_version").get() as { user_version: number } | undefined;
  return row?.user_version ?? 0;
}

/**
 * Brings the schema up to the newest migration. Each migration runs in its own IMMEDIATE transaction
 * together with the `user_version` bump, and the version is read again inside it, so two processes that
 * open the same file at once apply every step exactly once.
 */
export function migrate(db: DatabaseSync, migrations: readonly Migration[] = MIGRATIONS): number {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  const latest = migrations.length;
  const found = userVersion(db);
  if (found > latest) throw new SchemaTooNewError(found, latest);
  for (const migration of migrations.slice(found)) {
    db.exec("BEGIN IMMEDIATE");
    try {
      if (userVersion(db) < migration.version) {
        db.exec(migration.sql);
        db.exec(`PRAGMA user_version = ${migration.version}`);
      }
      db.exec("COMMIT");
    } catch (error) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw error;
    }
  }
  return latest;
}
