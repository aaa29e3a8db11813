import { mediaTypeOfUrl } from "../../contract/media-kinds.ts";
import { NETWORK_RULES, type NetworkId, textLimitFor } from "../../contract/networks.ts";
import type { CreatePostBody } from "../../contract/requests.ts";
import type { MediaPreview, PostValidation, TargetPreview } from "../../contract/resources.ts";
import { refuseBeyondPace } from "../../publishing/pacing.ts";
import type { PostRecord } from "../../store/types.ts";
import { measure } from "../../text/measure.ts";
import { parseScheduleAt } from "../../time/schedule-at.ts";
import type { Caller, RequestContext, ServiceDeps } from "../context.ts";
import { badRequest } from "../http-error.ts";
import { json } from "../responses.ts";
import { checkMonthlyPosts, checkPostContent, type PostContent, pendingTargets } from "./post-rules.ts";

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

/** What each network would get for `content`: the text publishing would store for it, and the media. */
async function previewTargets(
  deps: ServiceDeps,
  caller: Caller,
  content: PostContent,
  now: number,
): Promise<TargetPreview[]> {
  const media = content.media === null ? [] : [await previewMedia(deps, caller, content.media)];
  // The targets publishing would write for this post: their text is what each network is sent.
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
  return pendingTargets(post).map((target) => ({
    platform: target.platform,
    parts: [{ text: target.text, media }],
    first_comment: null,
    notes: notesFor(content, target.platform, target.text),
  }));
}

async function previewMedia(deps: ServiceDeps, caller: Caller, media: string): Promise<MediaPreview> {
  if (media.startsWith("med_")) {
    // checkMedia found it a moment ago; should it be gone since, the reference is shown as given.
    const record = await deps.store.getMedia(caller.user.id, media);
    if (record) return { url: record.url, type: record.type };
  }
  return { url: media, type: mediaTypeOfUrl(media) };
}

/** In words, what adapting the post to `platform` did to it. */
function notesFor(content: PostContent, platform: NetworkId, text: string): string[] {
  const rule = NETWORK_RULES[platform];
  const notes: string[] = [];
  const own = content.captions?.[platform];
  if (own !== undefined) notes.push(`text from captions.${platform} instead of caption`);
  const original = own ?? content.caption;
  if (text !== original) {
    const hasMedia = content.media !== null;
    const limit = textLimitFor(platform, hasMedia).toLocaleString("en-US");
    const counted = rule.lengthUnit === "weighted" ? ` as ${rule.name} counts them` : "";
    const withMedia = hasMedia && rule.textLimitWithMedia !== undefined ? " with media" : "";
    notes.push(
      `text shortened from ${measure(original, rule.lengthUnit)} to ${measure(text, rule.lengthUnit)} characters${counted}, to fit the ${rule.name} limit of ${limit}${withMedia}`,
    );
  }
  if (text.trim() === "" && content.media !== null) notes.push("no text: the media is posted alone");
  return notes;
}
