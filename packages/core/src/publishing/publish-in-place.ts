import type { ServiceDeps } from "../service/context.ts";
import { settledPost } from "../store/settle.ts";
import type { PostRecord, TargetRecord } from "../store/types.ts";
import { accountsReadOnce } from "./attempt-target.ts";
import { attemptSafely, inNetworkOrder, notifyRetries, type PostAnswer } from "./run-attempts.ts";

/**
 * Publish now, for a new post whose networks all publish in place (the sandbox): every attempt is made
 * before anything is written, then the post is written once — with what its networks did, its events
 * and the request's kept answer — in one transaction.
 *
 * Writing the attempts as in flight before making them is what keeps a real network from getting a
 * post twice after a crash. An attempt that sends nothing out has nothing to repeat: a crash before the
 * write leaves no trace, no answer was sent, and the client's retry (same Idempotency-Key) makes the
 * post anew; after it, the retry replays the answer, as for any keyed write. `targets` are the post's
 * targets with their first attempt begun. The caller runs this in the user's step of the queue, where
 * the insert it replaces ran, so the plan's limits count the post as before.
 */
export async function publishInPlace(
  deps: ServiceDeps,
  post: PostRecord,
  targets: readonly TargetRecord[],
  answer: PostAnswer,
): Promise<{ post: PostRecord; targets: TargetRecord[] }> {
  const readAccount = accountsReadOnce(deps, post);
  const attempts = await Promise.all(targets.map((target) => attemptSafely(deps, post, target, readAccount)));
  const outcomes = inNetworkOrder(attempts, deps.clock.now());
  const written = outcomes.map((outcome) => outcome.target);
  const settled = { ...post, ...settledPost(post, written, deps.clock.now()) };
  await deps.store.insertPost(settled, written, {
    events: outcomes.flatMap((outcome) => outcome.events),
    idempotency: answer(settled, written),
  });
  notifyRetries(deps, outcomes);
  return { post: settled, targets: written };
}
