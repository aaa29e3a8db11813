import type { CreatePostBody } from "../../contract/requests.ts";
import type { PostValidation, TargetPreview } from "../../contract/resources.ts";
import { viewMedia } from "../../posting/media-view.ts";
import { planTarget } from "../../posting/plan.ts";
import { refuseBeyondPace } from "../../publishing/pacing.ts";
import type { PostRecord } from "../../store/types.ts";
import { parseScheduleAt } from "../../time/schedule-at.ts";
import type { Caller, RequestContext, ServiceDeps } from "../context.ts";
import { badRequest } from "../http-error.ts";
import { json } from "../responses.ts";
import { checkMonthlyPosts, checkPostContent, type PostContent } from "./post-rules.ts";

/**
 * POST /posts/validate (extension): the checks of POST /posts, in the same order and with the same
 * 400s, then what each network would get — its parts (text as adapted at publish, and media), its
 * first comment and notes on what was adapted. Writes nothing: no post, no event, no place in the
 * month's posts; the call itself counts toward the rate limit and the month's API calls as any call.
 */
export async function validatePost({
  deps,
  body,
  caller,
}: RequestContext<CreatePostBody>): Promise<Response> {
  const now = deps.clock.now();
  if (body.draft === true && body.schedule_at !== undefined) {
    throw badRequest("A draft has no schedule: send draft: true or schedule_at, not both.");
  }
  const content = await checkPostContent(deps, caller, body);
  let publishesNow = body.draft !== true;
  if (body.schedule_at !== undefined) {
    const parsed = parseScheduleAt(body.schedule_at, now);
    if (!parsed.ok) throw badRequest(parsed.message);
    publishesNow = false;
  }
  await checkMonthlyPosts(deps, caller, now);
  if (publishesNow) await refuseBeyondPace(deps, caller.user.id, caller.key.mode, content.platforms, now);
  const answer: PostValidation = { valid: true, targets: await previewTargets(deps, caller, content, now) };
  return json(200, answer);
}

/** What each network would get for `content`: what publishing would send it (posting/plan.ts). */
async function previewTargets(
  deps: ServiceDeps,
  caller: Caller,
  content: PostContent,
  now: number,
): Promise<TargetPreview[]> {
  const post: PostRecord = {
    id: "post_validate",
    user_id: caller.user.id,
    mode: caller.key.mode,
    ...content,
    status: "draft",
    scheduled_at: null,
    published_at: null,
    created_at: now,
  };
  const getMedia = (userId: string, id: string) => deps.store.getMedia(userId, id);
  const previews: TargetPreview[] = [];
  for (const platform of content.platforms) {
    const plan = planTarget(post, platform);
    const parts: TargetPreview["parts"] = [];
    for (const part of plan.parts) {
      const media = await viewMedia(getMedia, caller.user.id, part.media);
      parts.push({ text: part.text, media: media.map(({ url, type }) => ({ url, type })) });
    }
    const comment = plan.firstComment;
    previews.push({
      platform,
      parts,
      first_comment: comment && comment.status !== "not_carried" ? comment.text : null,
      notes: plan.notes,
    });
  }
  return previews;
}
