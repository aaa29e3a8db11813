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

/** Runs `work` with the database open, and closes it afterwards whatever happens. */
export async function withStore<T>(path: string, work: (store: SqliteStore) => Promise<T>): Promise<T> {
  const store = openStore(path);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
