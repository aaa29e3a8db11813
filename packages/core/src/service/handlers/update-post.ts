import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import type { UpdatePostBody } from "../../contract/requests.ts";
import { newId } from "../../ids.ts";
import type { NewEvent, PostPatch, PostRecord } from "../../store/types.ts";
import { parseScheduleAt } from "../../time/schedule-at.ts";
import type { RequestContext } from "../context.ts";
import { badRequest, HttpError } from "../http-error.ts";
import { json } from "../responses.ts";
import { toPost } from "../serialize.ts";
import { postForKey } from "./post-for-key.ts";
import { checkPostContent, pendingTargets } from "./post-rules.ts";
import { storedInput } from "./rich-rules.ts";

const EDITABLE = [
  "caption",
  "captions",
  "platforms",
  "media",
  "thread",
  "split",
  "first_comment",
  "poll",
  "options",
  "schedule_at",
] as const;

/**
 * PATCH /posts/{id} (extension): edits a draft or a scheduled post. The post as the edit leaves it is
 * checked by the rules of POST /posts, in their order (platforms resolve, not empty, media, schedule
 * time); a refusal changes nothing. `schedule_at` schedules a draft; `schedule_at: null` makes a
 * scheduled post a draft again.
 *
 * The write is a compare-and-set from the status read: an edit racing the scheduler either lands
 * before the post is claimed (and the post publishes as edited) or finds it claimed and answers 409.
 * Edits of one user run one after another, so two edits of a post cannot lose each other's fields.
 */
export async function updatePost({
  deps,
  caller,
  params,
  body,
  keptAnswer,
}: RequestContext<UpdatePostBody>): Promise<Response> {
  if (!EDITABLE.some((field) => body[field] !== undefined)) {
    throw badRequest(`Nothing to change: send any of ${EDITABLE.join(", ")}.`);
  }
  return deps.perUser.run(caller.user.id, async () => {
    const now = deps.clock.now();
    const post = await postForKey(deps, caller, params.id!, "edit");
    if (post.status !== "draft" && post.status !== "scheduled") throw notEditable(post.status);

    // The post as the edit leaves it: each field sent replaces the stored one (null removes it).
    const stored = storedInput(post);
    const content = await checkPostContent(deps, caller, {
      caption: body.caption ?? post.caption,
      captions: body.captions ?? post.captions,
      platforms: body.platforms ?? post.platforms,
      media: body.media === undefined ? stored.media : body.media,
      thread: body.thread === undefined ? stored.thread : body.thread,
      split: body.split ?? stored.split,
      first_comment: body.first_comment === undefined ? stored.first_comment : body.first_comment,
      poll: body.poll === undefined ? stored.poll : body.poll,
      options: body.options === undefined ? stored.options : body.options,
    });
    let scheduledAt = post.scheduled_at;
    if (body.schedule_at === null) scheduledAt = null;
    else if (body.schedule_at !== undefined) {
      const parsed = parseScheduleAt(body.schedule_at, now);
      if (!parsed.ok) throw badRequest(parsed.message);
      scheduledAt = parsed.at;
    }

    const patch: PostPatch = {
      caption: content.caption,
      captions: content.captions ?? {},
      platforms: content.platforms,
      media: content.media,
      rich: content.rich ?? {},
      status: scheduledAt === null ? "draft" : "scheduled",
      scheduled_at: scheduledAt,
      published_at: null,
    };
    const targets = pendingTargets({ ...post, ...content, captions: content.captions, rich: content.rich });
    const dueTimeChanged = scheduledAt !== null && scheduledAt !== post.scheduled_at;
    const written = await deps.store.transitionPost(post.id, [post.status], patch, targets, (updated) => ({
      events: dueTimeChanged ? [scheduledEvent(updated, now)] : [],
      idempotency: keptAnswer(200, toPost(updated, targets)),
    }));
    if (!written) throw await refusal(deps.store, caller.user.id, post.id);
    if (dueTimeChanged) deps.scheduler.notify(scheduledAt!);
    return json(200, toPost(written, targets));
  });
}

function scheduledEvent(post: PostRecord, now: number): NewEvent {
  return {
    id: newId("evt", now),
    user_id: post.user_id,
    type: "post.scheduled",
    created: Math.floor(now / 1000),
    data: { post_id: post.id, platforms: post.platforms, scheduled_at: post.scheduled_at! },
  };
}

function notEditable(status: PostRecord["status"]): HttpError {
  const why =
    status === "published"
      ? "it is already published"
      : "it is being published right now (its due time came)";
  return new HttpError(
    409,
    `This post cannot be edited: ${why}. Only a draft or a scheduled post can be edited; create a new post instead.`,
  );
}

/** Why the compare-and-set failed: the post was claimed or published, deleted, or changed status. */
async function refusal(
  store: RequestContext["deps"]["store"],
  userId: string,
  id: string,
): Promise<HttpError> {
  const now = await store.getPost(userId, id);
  if (!now) return new HttpError(404, CONTRACT_MESSAGES.postNotFound);
  if (now.status === "publishing" || now.status === "published") return notEditable(now.status);
  return new HttpError(409, "The post changed while it was being edited; read it again and retry.");
}
