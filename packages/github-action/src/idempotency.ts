import { createHash } from "node:crypto";
import type { NetworkId } from "@socialpub/core";

const MAX_KEY_LENGTH = 255;

/**
 * The Idempotency-Key a release's announcement is sent with unless the `idempotency-key` input says
 * otherwise. It depends only on the repository, the release and the networks, so re-running a workflow
 * (or running a second one for the same release) replays the first post instead of posting again,
 * while announcing the same release to other networks makes a new post.
 */
export function defaultIdempotencyKey(
  repository: string,
  releaseId: number,
  platforms: readonly NetworkId[],
): string {
  const key = `github-release/${repository}/${releaseId}/${[...platforms].sort().join(",")}`;
  if (key.length <= MAX_KEY_LENGTH && /^[\x20-\x7e]+$/.test(key)) return key;
  return `github-release/${createHash("sha256").update(key).digest("hex")}`;
}
