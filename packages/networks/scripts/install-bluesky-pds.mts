// Installs the real Bluesky PDS (with an in-memory PLC directory) that the adapter's tests publish to,
// into a cache folder outside the repository (see src/bluesky/peer/pds-install-location.ts).
// Idempotent: when the cache is complete it only says so. Safe to run several at once: the cache
// install shared with the n8n tests takes a lock, installs beside the cache and renames into place.
//
// The PDS needs one native module, better-sqlite3. Its prebuilt download is not reachable here, so it
// is compiled from source against the headers of the Node.js package installed beside it (the same
// Node that then runs the PDS): install scripts are skipped first, then only better-sqlite3 is rebuilt
// with npm_config_nodedir pointing at that package.
import { writeFileSync } from "node:fs";
import { installOnce, npmInstallInto, run } from "../../../scripts/cache-install.mts";
import {
  isPdsInstalled,
  nodePackageName,
  PDS_INSTALL_COMMAND,
  PDS_NODE_VERSION,
  PDS_VERSION,
  PLC_SERVER_VERSION,
  pdsCacheDir,
  pdsNodeBinary,
  pdsNodeDir,
  pdsReadyMarker,
} from "../src/bluesky/peer/pds-install-location.ts";

/** Installs the PDS into `dir`, an empty folder; writes the ready marker last. */
function install(dir: string): void {
  npmInstallInto(dir, {
    packageJson: { name: "socialpub-bluesky-pds-cache", private: true },
    packages: [
      `${nodePackageName()}@${PDS_NODE_VERSION}`,
      `@atproto/pds@${PDS_VERSION}`,
      `@did-plc/server@${PLC_SERVER_VERSION}`,
    ],
    native: { module: "better-sqlite3", nodeBinary: pdsNodeBinary(dir), nodeDir: pdsNodeDir(dir) },
  });
  // The proof that the native build loads in the Node that will run it.
  const check = run(
    pdsNodeBinary(dir),
    [
      "-e",
      "const D=require('better-sqlite3');console.log(new D(':memory:').prepare('select 1 as one').get().one)",
    ],
    dir,
  ).trim();
  if (check !== "1") throw new Error(`better-sqlite3 did not load: printed "${check}"`);
  writeFileSync(pdsReadyMarker(dir), `${PDS_VERSION}\n`);
}

const cacheDir = pdsCacheDir();
try {
  const result = await installOnce({
    cacheDir,
    isReady: isPdsInstalled,
    install: (dir) => {
      console.log(
        `Installing the Bluesky PDS ${PDS_VERSION} into ${cacheDir} (a few minutes; about 560 MB with its Node.js)…`,
      );
      install(dir);
    },
    log: (message) => console.log(message),
  });
  console.log(
    result === "present"
      ? `The Bluesky PDS ${PDS_VERSION} is installed in ${cacheDir}`
      : `The Bluesky PDS ${PDS_VERSION} is ready in ${cacheDir}`,
  );
} catch (error) {
  console.error(
    `Installing the Bluesky PDS failed: ${(error as Error).message}. Retry with: ${PDS_INSTALL_COMMAND}`,
  );
  process.exit(1);
}
