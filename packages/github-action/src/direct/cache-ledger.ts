// The ledger kept in the GitHub Actions cache: what the workflow may use without any permission
// beyond what every job has. One cache entry per network posted to, named
//   socialpub-announced/<sha256 of the announcement key>/<network>/<permalink, URI-encoded>#<run>
// A later run looks each network's name up (a prefix match, lookup only: nothing is downloaded) and
// reads the permalink from the entry's name. Entries cannot be changed once made, and a network is
// written once per announcement (a re-run skips the networks it finds), so names never collide.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as cache from "@actions/cache";
import type { NetworkId } from "@socialpub/core";
import type { Log } from "../announce.ts";
import { DIRECT_NETWORKS } from "./credentials.ts";
import type { Ledger, LedgerEntries } from "./ledger.ts";

/**
 * The one file each entry holds. A cache entry must hold some file, and restoring looks entries up by
 * the paths they were saved with, so the path is the same in every run of every workflow.
 */
const MARKER = join(tmpdir(), "socialpub-announced", "entry.json");

function prefixOf(announcement: string, network: NetworkId): string {
  const digest = createHash("sha256").update(announcement).digest("hex");
  return `socialpub-announced/${digest}/${network}/`;
}

/** The Actions cache's ledger, or undefined when the runner offers no cache service. */
export function actionsCacheLedger(env: NodeJS.ProcessEnv, log: Log): Ledger | undefined {
  if (!cache.isFeatureAvailable()) return undefined;
  const run = `${env.GITHUB_RUN_ID ?? "local"}-${env.GITHUB_RUN_ATTEMPT ?? "1"}`;
  return {
    description: "the repository's Actions cache",
    async read(announcement) {
      const entries: LedgerEntries = {};
      for (const network of DIRECT_NETWORKS) {
        const prefix = prefixOf(announcement, network);
        try {
          const matched = await cache.restoreCache([MARKER], prefix, [prefix], { lookupOnly: true });
          if (!matched) continue;
          const encoded = matched.slice(prefix.length, matched.lastIndexOf("#"));
          entries[network] = { permalink: decodeURIComponent(encoded), at: 0 };
        } catch (error) {
          log.warning(
            `Could not read the Actions cache for an earlier ${network} post of this release: ${(error as Error).message}`,
          );
        }
      }
      return entries;
    },
    async write(announcement, entries) {
      for (const [network, entry] of Object.entries(entries) as [NetworkId, { permalink: string }][]) {
        const key = `${prefixOf(announcement, network)}${encodeURIComponent(entry.permalink)}#${run}`;
        try {
          mkdirSync(join(MARKER, ".."), { recursive: true });
          writeFileSync(MARKER, `${JSON.stringify({ network, permalink: entry.permalink })}\n`);
          // saveCache warns and answers -1 when the entry exists already (an earlier run wrote it).
          await cache.saveCache([MARKER], key);
        } catch (error) {
          log.warning(
            `Could not remember the ${network} post in the Actions cache (a re-run may post there again): ${(error as Error).message}`,
          );
        }
      }
    },
  };
}
