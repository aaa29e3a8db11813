// Makes sure a headless Chromium is there for the end-to-end tests: nothing to do when one is found,
// else, in CI (CI=true, as root), Debian's package through apt-get. Elsewhere a missing Chromium is one
// line and no failure: no npm package ships a Chromium that runs here, a developer's machine is not
// changed behind their back, and the browser tests skip saying why. Safe to run again and again.
import { spawnSync } from "node:child_process";
import { findChromium, INSTALL_HINT } from "./chromium.ts";

function run(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

const found = findChromium();
if (found) {
  console.log(`chromium: ${found}`);
} else if (process.env.CI !== "true") {
  console.log(`chromium: not found; the dashboard's browser tests will be skipped. ${INSTALL_HINT}`);
} else if (
  process.getuid?.() === 0 &&
  spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0
) {
  console.log("chromium: not found; installing Debian's chromium package");
  // Another install at the same time (another package's prepare step) holds dpkg's lock: wait for it.
  const wait = ["-o", "DPkg::Lock::Timeout=300"];
  if (
    !run("apt-get", [...wait, "update", "-q"]) ||
    !run("apt-get", [...wait, "install", "-y", "-q", "--no-install-recommends", "chromium"])
  ) {
    console.error("apt-get could not install chromium.");
    process.exit(1);
  }
  const installed = findChromium();
  if (!installed) {
    console.error(`chromium was installed but not found. ${INSTALL_HINT}`);
    process.exit(1);
  }
  console.log(`chromium: ${installed}`);
} else {
  console.error(`chromium: not found. ${INSTALL_HINT}`);
  process.exit(1);
}
