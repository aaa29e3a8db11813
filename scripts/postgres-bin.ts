// Where this machine's PostgreSQL server binaries are: machine setup, beside toolchain.mjs, shared by
// the installer (install-postgres.ts) and the throwaway clusters tests and benchmarks start.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** The folder of PostgreSQL's server binaries (initdb, postgres), newest version first; null if none. */
export function findPostgresBin(): string | null {
  const fromEnv = process.env.SOCIALPUB_PG_BIN;
  if (fromEnv && existsSync(join(fromEnv, "initdb"))) return fromEnv;
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], "bin");
  }
  try {
    const initdb = execFileSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).trim();
    if (initdb) return join(initdb, "..");
  } catch {
    // not on PATH either
  }
  return null;
}
