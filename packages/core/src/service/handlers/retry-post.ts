import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import { NETWORK_RULES } from "../../contract/networks.ts";
import { refuseBeyondPace } from "../../publishing/pacing.ts";
import { beginAttempts, runAttempts } from "../../publishing/run-attempts.ts";
import type { PostRecord, TargetRecord } from "../../store/types.ts";
import type { RequestContext } from "../context.ts";
import { HttpError } from "../http-error.ts";
import { json } from "../responses.ts";
import { toPost } from "../serialize.ts";
import { postForKey } from "./post-for-key.ts";

/**
 * POST /posts/{id}/retry (extension): sends again, once each, the networks of a post that failed —
 * those of a post that went back to draft because every network failed, or the few that failed beside
 * the ones that published — with each account's credentials as they are now. The post is publishing
 * while they go: a second retry meanwhile answers 409, so no network is sent twice. The networks that
 * published are left as they are.
 *
 * Never twice: a network whose earlier attempt's outcome is unknown is retried as an unknown outcome
 * (attempt-target.ts): the network is first asked whether the post is there, and where it cannot
 * tell, nothing is sent and the network stays failed.
 */
export async function retryPost({ deps, caller, params, keptAnswer }: RequestContext): Promise<Response> {
  const now = deps.clock.now();
  const found = await postForKey(deps, caller, params.id!, "retry");
  // Each write keeps the answer for the post as it writes it (Idempotency-Key).
  const answer = (written: PostRecord, writtenTargets: TargetRecord[]) =>
    keptAnswer(200, toPost(written, writtenTargets));
  // Read, checked and claimed in one step of the user's queue: edits, publishes and other retries of
  // the user's posts take turns with it, so none of them changes the targets between read and write.
  const { claimed, begun } = await deps.perUser.run(found.user_id, async () => {
    const post = await deps.store.getPost(caller.user.id, found.id);
    if (!post) throw new HttpError(404, CONTRACT_MESSAGES.postNotFound);
    const targets = await deps.store.getTargets(post.id);
    const failed = retryable(post, targets);
    await refuseBeyondPace(
      deps,
      post.user_id,
      post.mode,
      failed.map((t) => t.platform),
      now,
    );
    // Every other target is settled (published), and only its figures can change meanwhile: they are
    // written back as read, a moment ago.
    const again = targets.map((t) => (t.status === "failed" ? sentAgain(t) : t));
    const claimed = await deps.store.transitionPost(
      post.id,
      [post.status],
      { status: "publishing" },
      again,
      (written) => ({ idempotency: answer(written, again) }),
    );
    if (!claimed) {
      throw new HttpError(409, "The post changed while it was being retried; read it again and retry.");
    }
    return { claimed, begun: await beginAttempts(deps, claimed, now) };
  });
  const done = await runAttempts(deps, claimed, begun, answer, deps.publishing.options.waitMs);
  if (!done.post) throw new HttpError(404, CONTRACT_MESSAGES.postNotFound);
  return json(200, toPost(done.post, done.targets));
}

/** The failed targets a retry sends again; 409 when there are none, or the post is still under way. */
function retryable(post: PostRecord, targets: readonly TargetRecord[]): TargetRecord[] {
  if (post.status === "publishing") {
    throw new HttpError(409, "The post is publishing; retry it once it has finished (GET /posts/{id}).");
  }
  if (post.status === "scheduled") {
    throw new HttpError(
      409,
      "The post is scheduled and has not been published yet: there is nothing to retry.",
    );
  }
  const underWay = targets.filter((t) => t.status === "pending");
  if (post.status === "draft" && underWay.length > 0) {
    // Networks never sent (a draft made so, or edited): publishing them is POST /posts/{id}/publish.
    throw new HttpError(
      409,
      "No network has failed for this post: it is a draft; publish it with POST /posts/{id}/publish.",
    );
  }
  if (underWay.length > 0) {
    // A network still being published to (an attempt in flight, or its next attempt due later).
    throw new HttpError(
      409,
      `The post is still publishing to ${names(underWay)}; retry it once every network has finished (GET /posts/{id}/targets).`,
    );
  }
  const failed = targets.filter((t) => t.status === "failed");
  if (failed.length === 0) {
    throw new HttpError(
      409,
      post.status === "draft"
        ? "No network has failed for this post: it is a draft; publish it with POST /posts/{id}/publish."
        : "No network has failed for this post: there is nothing to retry.",
    );
  }
  return failed;
}

/**
 * A failed target made due again: a new round of attempts, made at once. What keeps it from
 * publishing twice is kept: the progress of a publish in several steps, and an outcome that was
 * unknown, which the next attempt checks with the network before sending anything.
 */
function sentAgain(target: TargetRecord): TargetRecord {
  return {
    ...target,
    status: "pending",
    error: null,
    attempts: 0,
    in_flight: false,
    next_attempt_at: null,
    outcome_unknown: target.outcome_unknown || OUTCOME_UNKNOWN.test(target.error ?? ""),
  };
}

/**
 * How a target failed with its outcome unknown says so (attempt-target.ts's outcomeUnknown): one that
 * failed so before the flag was kept on it is still checked with the network first.
 */
const OUTCOME_UNKNOWN = /: outcome unknown: check the network \(/;

const names = (targets: readonly TargetRecord[]) =>
  new Intl.ListFormat("en", { type: "conjunction" }).format(
    targets.map((t) => NETWORK_RULES[t.platform].name),
  );
