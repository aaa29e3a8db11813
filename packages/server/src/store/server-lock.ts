import { DatabaseSync } from "node:sqlite";

/** Another server process holds the database. */
export class DatabaseInUseError extends Error {
  constructor(path: string) {
    super(`another socialpub-server is running on ${path}; stop it first (one server per database)`);
    this.name = "DatabaseInUseError";
  }
}

export interface ServerLock {
  release(): void;
}

/**
 * Makes sure one server at a time runs on a database file. Crash recovery releases every post left in
 * `publishing`, which is only right when no other server is publishing them, so a second server must
 * not start on the same file. Administration commands are not affected: they do not take this lock.
 *
 * The lock is an exclusive SQLite transaction held on a small file beside the database
 * (`<database>.server-lock`) for the life of the process. It rests on the operating system's file
 * locks, so it is released when the process ends in any way — `kill -9` included — and a restart never
 * finds a stale lock.
 */
export function lockDatabaseForServer(databasePath: string): ServerLock {
  if (databasePath === ":memory:") return { release: () => {} };
  const lock = new DatabaseSync(`${databasePath}.server-lock`, { timeout: 0 });
  try {
    lock.exec("PRAGMA locking_mode = EXCLUSIVE");
    lock.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if ((error as { errcode?: number }).errcode === 5 /* SQLITE_BUSY */)
      throw new DatabaseInUseError(databasePath);
    throw error;
  }
  return {
    release: () => {
      if (!lock.isOpen) return;
      lock.exec("ROLLBACK");
      lock.close();
    },
  };
}
