// Makes sure PostgreSQL's server binaries are there for the tests and benchmarks that start a
// throwaway cluster: nothing to do when initdb is found, else Debian's postgresql package through
// apt-get (CI runs as root). Machine setup, so it lives beside toolchain.mjs; the server package's
// `ci:prepare` runs it, since `pnpm -r run ci:prepare` (.ci/run, CI) leaves the root package out. No
// cluster is started here and none is left running: each test run starts its own in a temporary
// folder. Safe to run again and again.
import { spawnSync } from "node:child_process";
import { findPostgresBin } from "./postgres-bin.ts";

const HINT =
  "Install PostgreSQL's server (Debian: apt-get install -y postgresql), or set SOCIALPUB_PG_BIN to the folder holding initdb and postgres.";

function run(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

const found = findPostgresBin();
if (found) {
  console.log(`postgresql: ${found}`);
} else if (
  process.getuid?.() === 0 &&
  spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0
) {
  console.log("postgresql: not found; installing Debian's postgresql package");
  // Another install at the same time (another package's prepare step) holds dpkg's lock: wait for it.
  const wait = ["-o", "DPkg::Lock::Timeout=300"];
  if (
    !run("apt-get", [...wait, "update", "-q"]) ||
    !run("apt-get", [...wait, "install", "-y", "-q", "--no-install-recommends", "postgresql"])
  ) {
    console.error("apt-get could not install postgresql.");
    process.exit(1);
  }
  const installed = findPostgresBin();
  if (!installed) {
    console.error(`postgresql was installed but initdb was not found. ${HINT}`);
    process.exit(1);
  }
  console.log(`postgresql: ${installed}`);
} else {
  console.error(`postgresql: not found. ${HINT}`);
  process.exit(1);
}
