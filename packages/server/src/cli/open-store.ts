import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { openSqliteStore, type SqliteStore, type Synchronous } from "../store/sqlite-store.ts";
import { CliError, describeFailure } from "./errors.ts";

/**
 * Opens the database, turning every reason it cannot be opened into one line that names the file. The
 * server's store (`start`) checkpoints its WAL in the background; an admin command's does not need to.
 */
export function openStore(
  path: string,
  synchronous?: Synchronous,
  options: { checkpointInBackground?: boolean } = {},
): SqliteStore {
  try {
    return openSqliteStore(path, { ...(synchronous && { synchronous }), ...options });
  } catch (error) {
    throw new CliError(`cannot open database ${path}: ${describeFailure(error)}`);
  }
}

/**
 * Runs `work` with an existing database open, and closes it afterwards whatever happens. Only `start`
 * creates a database: an administration command given a path that does not exist (a typo in --db, a
 * command run from another folder) would otherwise make an empty one and act on it, and its user or
 * key would land where no server reads it.
 */
export async function withStore<T>(path: string, work: (store: SqliteStore) => Promise<T>): Promise<T> {
  if (path !== ":memory:" && !existsSync(path)) {
    throw new CliError(
      `cannot open database ${resolve(path)}: it does not exist; check --db (or SOCIALPUB_DB), or create it by running "socialpub-server start --db ${path}" once.`,
    );
  }
  const store = openStore(path);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
