// Installs the real n8n that the end-to-end tests run, into a cache folder outside the repository
// (see n8n-install-location.mts). Idempotent: when the cache is complete it only says so. Safe to run
// several at once (see scripts/cache-install.mts at the repository root): one installs, the others wait for it, and the cache folder
// only ever appears complete.
//
// n8n 2.40.7 installs on Node 24 with two workarounds, both for packages the npm registry lacks:
// linkedom is pinned to 0.18.12 (0.18.15 needs a missing package), and install scripts are skipped
// (a Kafka client's build step downloads zlib). The one native module n8n needs, sqlite3, is then
// built against the headers of the Node that will run n8n.
import { writeFileSync } from "node:fs";
import { installOnce, npmInstallInto, run } from "../../../scripts/cache-install.mts";
import {
  INSTALL_COMMAND,
  isN8nInstalled,
  N8N_VERSION,
  NODE_VERSION,
  n8nCacheDir,
  n8nEntry,
  nodeBinary,
  nodeDir,
  nodePackageName,
  readyMarker,
} from "./n8n-install-location.mts";

/** Installs n8n into `dir`, an empty folder; writes the ready marker last. */
function install(dir: string): void {
  npmInstallInto(dir, {
    packageJson: { name: "socialpub-n8n-cache", private: true, overrides: { linkedom: "0.18.12" } },
    packages: [`${nodePackageName()}@${NODE_VERSION}`, `n8n@${N8N_VERSION}`],
    native: { module: "sqlite3", nodeBinary: nodeBinary(dir), nodeDir: nodeDir(dir) },
  });
  const version = run(nodeBinary(dir), [n8nEntry(dir), "--version"], dir).trim();
  if (!version.includes(N8N_VERSION)) throw new Error(`installed n8n reports version "${version}"`);
  writeFileSync(readyMarker(dir), `${N8N_VERSION}\n`);
}

const cacheDir = n8nCacheDir();
try {
  const result = await installOnce({
    cacheDir,
    isReady: isN8nInstalled,
    install: (dir) => {
      console.log(`Installing n8n ${N8N_VERSION} for ${cacheDir} (a few minutes, about 3 GB)…`);
      install(dir);
    },
    log: (message) => console.log(message),
  });
  console.log(
    result === "present"
      ? `n8n ${N8N_VERSION} is installed in ${cacheDir}`
      : `n8n ${N8N_VERSION} is ready in ${cacheDir}`,
  );
} catch (error) {
  console.error(`Installing n8n failed: ${(error as Error).message}. Retry with: ${INSTALL_COMMAND}`);
  process.exit(1);
}
