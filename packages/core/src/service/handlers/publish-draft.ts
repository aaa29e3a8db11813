import type { z } from "zod";
import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import type { PublishDraftBody } from "../../contract/requests.ts";
import { newId } from "../../ids.ts";
import type { PublishStep } from "../../networks/adapter.ts";
import { refuseBeyondPace } from "../../publishing/pacing.ts";
import { beginAttempts, runAttempts } from "../../publishing/run-attempts.ts";
import { sentParts } from "../../publishing/thread.ts";
import type { PostRecord, TargetRecord } from "../../store/types.ts";
import { parseScheduleAt } from "../../time/schedule-at.ts";
import type { RequestContext } from "../context.ts";
import { badRequest, HttpError } from "../http-error.ts";
import { json } from "../responses.ts";
import { toPost } from "../serialize.ts";
import { postForKey } from "./post-for-key.ts";
import { pendingTargets } from "./post-rules.ts";

/**
 * POST /posts/{id}/publish (extension): publishes a draft now, or schedules it with schedule_at. A
 * post that went back to draft because every network failed is retried this way once its accounts
 * are reconnected. The draft's targets start again as pending.
 */
export async function publishDraft({
  deps,
  caller,
  params,
  body,
  keptAnswer,
}: RequestContext<z.output<typeof PublishDraftBody>>): Promise<Response> {
  const now = deps.clock.now();
  const post = await postForKey(deps, caller, params.id!, "publish");
  if (post.status !== "draft") {
    throw new HttpError(409, `Only a draft can be published; this post is ${post.status}.`);
  }
  let scheduledAt: number | null = null;
  if (body.schedule_at !== undefined) {
    const parsed = parseScheduleAt(body.schedule_at, now);
    if (!parsed.ok) throw badRequest(parsed.message);
    scheduledAt = parsed.at;
  }
  const targets = keepThreadProgress(pendingTargets(post), await deps.store.getTargets(post.id));
  // Each write keeps the answer for the post as it writes it (Idempotency-Key).
  const answer = (written: PostRecord, writtenTargets: TargetRecord[]) =>
    keptAnswer(200, toPost(written, writtenTargets));
  if (scheduledAt !== null) {
    const scheduled = await deps.store.transitionPost(
      post.id,
      ["draft"],
      { status: "scheduled", scheduled_at: scheduledAt, published_at: null },
      targets,
      (written) => ({
        events: [
          {
            id: newId("evt", now),
            user_id: post.user_id,
            type: "post.scheduled",
            created: Math.floor(now / 1000),
            data: { post_id: post.id, platforms: post.platforms, scheduled_at: scheduledAt },
          },
        ],
        idempotency: answer(written, targets),
      }),
    );
    if (!scheduled) throw changedMeanwhile();
    deps.scheduler.notify(scheduledAt);
    return json(200, toPost(scheduled, targets));
  }
  // The pacing check and the start of the attempts are one step of the user's queue, so two requests
  // cannot both take an account's last free slot.
  const { claimed, begun } = await deps.perUser.run(post.user_id, async () => {
    await refuseBeyondPace(deps, post.user_id, post.mode, post.platforms, now);
    const claimed = await deps.store.transitionPost(
      post.id,
      ["draft"],
      { status: "publishing", scheduled_at: null, published_at: null },
      targets,
      (written) => ({ idempotency: answer(written, targets) }),
    );
    if (!claimed) throw changedMeanwhile();
    return { claimed, begun: await beginAttempts(deps, claimed, now) };
  });
  const done = await runAttempts(deps, claimed, begun, answer, deps.publishing.options.waitMs);
  if (!done.post) throw new HttpError(404, CONTRACT_MESSAGES.postNotFound);
  return json(200, toPost(done.post, done.targets));
}

/**
 * A thread that stopped part way before the post went back to draft keeps what it published: the saved
 * step and the parts sent stay on the target, so publishing the draft again continues from the first
 * part not published and never sends one twice (an edit since then planned the target anew).
 */
function keepThreadProgress(fresh: TargetRecord[], before: readonly TargetRecord[]): TargetRecord[] {
  return fresh.map((target) => {
    const old = before.find((t) => t.platform === target.platform);
    if (!old?.parts || !target.parts || old.publish_step === null) return target;
    let step: PublishStep | null = null;
    try {
      step = JSON.parse(old.publish_step) as PublishStep;
    } catch {
      return target;
    }
    const same =
      old.parts.length === target.parts.length &&
      old.parts.every((p, i) => p.text === target.parts![i]!.text);
    if (sentParts(step).length === 0 || !same) return target;
    return {
      ...target,
      publish_step: old.publish_step,
      outcome_unknown: old.outcome_unknown,
      parts: old.parts.map((p) => (p.status === "failed" ? { ...p, status: "pending" } : p)),
    };
  });
}

const changedMeanwhile = () =>
  new HttpError(409, "The post changed while it was being published; read it again and retry.");
