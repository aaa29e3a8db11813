import type { PublishInput, PublishStep } from "@socialpub/core";

/*
 * The step a publish in several steps stands at, as this attempt knows it. The service hands
 * `post.step` as it was when the attempt began, and runs the publish once more after refreshing a token
 * the network refused; that second run must see what the first one saved (an upload it opened), not
 * the step the attempt began with, or it would start the upload over.
 */

const savedThisAttempt = new WeakMap<PublishInput, PublishStep>();

/** What this attempt saved last, else what an earlier attempt saved, else null. */
export const currentStep = (post: PublishInput): PublishStep | null =>
  savedThisAttempt.get(post) ?? post.step;

/** Saves the step on the target (before the adapter goes on) and remembers it for this attempt. */
export async function saveAttemptStep(post: PublishInput, step: PublishStep): Promise<void> {
  await post.saveStep(step);
  savedThisAttempt.set(post, step);
}
