// What identifies one release's announcement across runs of the workflow, and the per-network keys
// derived from it. Without a service there is no Idempotency-Key store: the networks themselves (a
// Bluesky record key) and the run's ledger (ledger.ts) hold what was posted under this key.
import { type NetworkId, publishKey } from "@socialpub/core";

/** `github-release/<owner/name>/<release id>`, or the `idempotency-key` input when it is set. */
export function announcementKey(repository: string, releaseId: number, override: string | undefined): string {
  return override ?? `github-release/${repository}/${releaseId}`;
}

/**
 * The key a network's post of this announcement is made under: a TID (what Bluesky takes as a record
 * key) carrying the release's publication time, so the post sorts where the release does, and a hash
 * of the announcement key and the network, so it is the same in every run and differs per network.
 * A second create of the same record key is refused by the PDS: a re-run cannot post again.
 */
export function networkKey(announcement: string, releaseTimeMs: number, network: NetworkId): string {
  return publishKey(announcement, releaseTimeMs, network);
}
