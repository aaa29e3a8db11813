import type { IdempotencyAnswer, PostRecord, Store, TargetRecord } from "../store/types.ts";
import { fanOut } from "./sandbox/fan-out.ts";

export interface Published {
  /** The post after publishing, or null when it was deleted while it was being published. */
  post: PostRecord | null;
  targets: TargetRecord[];
}

/**
 * The answer a keyed request that publishes a post keeps for the post as written (see KeepAnswer);
 * undefined without a key.
 */
export type PostAnswer = (post: PostRecord, targets: TargetRecord[]) => IdempotencyAnswer | undefined;

/**
 * Completes a post that is in `publishing`: fans it out, then stores the outcome and its events through
 * a compare-and-set from `publishing`, so a DELETE that got there first leaves the post deleted and no
 * event appears. At least one network published: published; every network failed: back to draft.
 * A request that publishes at once stores its answer (`answer`) with the outcome.
 */
export async function publishClaimedPost(
  store: Store,
  post: PostRecord,
  now: number,
  answer?: PostAnswer,
): Promise<Published> {
  const result = await fanOut(store, post, await store.getTargets(post.id), now);
  const patch = result.published
    ? { status: "published" as const, published_at: now }
    : { status: "draft" as const, published_at: null, scheduled_at: null };
  const updated = await store.transitionPost(post.id, ["publishing"], patch, result.targets, (written) => ({
    events: result.events,
    idempotency: answer?.(written, result.targets),
  }));
  return { post: updated, targets: result.targets };
}
