import { accessSync, constants, mkdirSync, type Stats, statSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Makes sure the folder that will hold the database file `path` (absolute) exists, creating the
 * missing levels one by one. It does not use `mkdirSync(…, { recursive: true })`: on a pseudo
 * filesystem such as /proc that call never returns (it spins at full CPU), so `--db /proc/nope/x.db`
 * hung the server instead of refusing it. The nearest existing ancestor must be a writable folder;
 * otherwise, or when a level cannot be made, this throws an error whose message is one line.
 */
export function ensureDatabaseFolder(path: string): void {
  const missing: string[] = [];
  let folder = dirname(path);
  for (;;) {
    const stats = statOrNull(folder);
    if (stats !== null) {
      if (!stats.isDirectory()) throw new Error(`${folder} is not a folder`);
      break;
    }
    missing.unshift(folder);
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  if (missing.length === 0) return;
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new Error(`cannot create the folder ${missing[0]}: ${folder} is not writable`);
  }
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Another process (a second command on the same new path) may have made it meanwhile.
      if (code === "EEXIST" && statOrNull(level)?.isDirectory()) continue;
      throw new Error(
        `cannot create the folder ${level}: ${REASONS[code ?? ""] ?? `the file system refused (${code})`}`,
      );
    }
  }
}

const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
  ENOENT: "the file system does not allow new folders there",
};

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
