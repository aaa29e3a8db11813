import type { PostRecord, Store, TargetRecord } from "../store/types.ts";
import { fanOut } from "./sandbox/fan-out.ts";

export interface Published {
  /** The post after publishing, or null when it was deleted while it was being published. */
  post: PostRecord | null;
  targets: TargetRecord[];
}

/**
 * Completes a post that is in `publishing`: fans it out, then stores the outcome and its events through
 * a compare-and-set from `publishing`, so a DELETE that got there first leaves the post deleted and no
 * event appears. At least one network published: published; every network failed: back to draft.
 */
export async function publishClaimedPost(store: Store, post: PostRecord, now: number): Promise<Published> {
  const result = await fanOut(store, post, await store.getTargets(post.id), now);
  const patch = result.published
    ? { status: "published" as const, published_at: now }
    : { status: "draft" as const, published_at: null, scheduled_at: null };
  const updated = await store.transitionPost(post.id, ["publishing"], patch, result.targets, {
    events: result.events,
  });
  return { post: updated, targets: result.targets };
}
