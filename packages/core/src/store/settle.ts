import type { PostRecord, TargetRecord } from "./types.ts";

/** Where publishing stands for a target no attempt has been made on. */
export const NOT_ATTEMPTED = {
  attempts: 0,
  attempted_at: null,
  in_flight: false,
  outcome_unknown: false,
  next_attempt_at: null,
  remote_id: null,
  publish_step: null,
  metrics_due_at: null,
  metrics_reads: 0,
} as const satisfies Partial<TargetRecord>;

/**
 * What a post that is publishing (or published) becomes once its targets are as given: any network
 * published → published (its first publication time kept); else any still pending → publishing; else
 * every network failed → back to draft with no schedule, as the contract's fan-out does. A post in
 * another status (a draft, a scheduled post) is left as it is. Every store applies this inside the
 * step that writes the targets, so the post and its targets never disagree.
 */
export function settledPost(
  post: PostRecord,
  targets: readonly TargetRecord[],
  now: number,
): Pick<PostRecord, "status" | "scheduled_at" | "published_at"> {
  const { status, scheduled_at, published_at } = post;
  if (status !== "publishing" && status !== "published") return { status, scheduled_at, published_at };
  if (targets.some((t) => t.status === "published")) {
    return { status: "published", scheduled_at, published_at: published_at ?? now };
  }
  if (targets.some((t) => t.status === "pending"))
    return { status: "publishing", scheduled_at, published_at };
  return { status: "draft", scheduled_at: null, published_at: null };
}
