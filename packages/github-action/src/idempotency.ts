import { createHash } from "node:crypto";
import type { NetworkId } from "@socialpub/core";

const MAX_KEY_LENGTH = 255;

/** The key's last segment when `platforms` is left empty: every network connected at the time. */
export const CONNECTED_NETWORKS = "connected";

/**
 * The Idempotency-Key a release's announcement is sent with unless the `idempotency-key` input says
 * otherwise. It depends only on the repository, the release and the networks asked for, so re-running a
 * workflow (or running a second one for the same release) replays the first post instead of posting
 * again, while announcing the same release to other networks makes a new post.
 *
 * `networks` is "connected" when the workflow asks for every connected network: the key then names no
 * network, so it stays the same when accounts are connected or disconnected between two runs.
 */
export function defaultIdempotencyKey(
  repository: string,
  releaseId: number,
  networks: readonly NetworkId[] | typeof CONNECTED_NETWORKS,
): string {
  const segment = networks === CONNECTED_NETWORKS ? networks : [...networks].sort().join(",");
  const key = `github-release/${repository}/${releaseId}/${segment}`;
  if (key.length <= MAX_KEY_LENGTH && /^[\x20-\x7e]+$/.test(key)) return key;
  return `github-release/${createHash("sha256").update(key).digest("hex")}`;
}
