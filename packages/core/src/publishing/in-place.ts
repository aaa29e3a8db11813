import type { ServiceDeps } from "../service/context.ts";
import type { PostRecord, TargetRecord } from "../store/types.ts";

/** True when every network of the post publishes in place: through an adapter that sends nothing out. */
export function publishesInPlace(deps: ServiceDeps, post: PostRecord): boolean {
  return post.platforms.every((platform) => deps.publishing.adapterFor(post.mode, platform)?.local === true);
}

/**
 * A target with an attempt begun, as the store's beginTargetAttempts would write it, for an attempt
 * that is made before anything is written: one that publishes in place has nothing to guard by being
 * marked in flight first (see publish-in-place.ts).
 */
export function begunInPlace(target: TargetRecord, now: number): TargetRecord {
  return {
    ...target,
    in_flight: true,
    attempts: target.attempts + 1,
    attempted_at: now,
    next_attempt_at: null,
  };
}
