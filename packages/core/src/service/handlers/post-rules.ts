import { CONTRACT_MESSAGES } from "../../contract/errors.ts";
import { isNetworkId, type NetworkId } from "../../contract/networks.ts";
import { PLANS } from "../../contract/plans.ts";
import type { NetworkOptions, Poll, Split, ThreadPart } from "../../contract/rich.ts";
import { newId } from "../../ids.ts";
import { mediaRefs, overridesFor, type PostMediaInput, textOf } from "../../posting/content.ts";
import { planTarget } from "../../posting/plan.ts";
import { refuseBeyondPace } from "../../publishing/pacing.ts";
import {
  type BegunAttempts,
  begunInPlace,
  type PostAnswer,
  publishesInPlace,
  publishInPlace,
  publishNow,
} from "../../publishing/run-attempts.ts";
import { NOT_ATTEMPTED } from "../../store/settle.ts";
import type { NewEvent, PostRecord, RichContent, TargetRecord } from "../../store/types.ts";
import { startOfMonth } from "../../time/month.ts";
import type { Caller, ServiceDeps } from "../context.ts";
import { badRequest } from "../http-error.ts";
import { checkMedia } from "./media-rules.ts";
import { checkRich } from "./rich-rules.ts";

export { mediaRefs, type PostMediaInput, textOf };

/** What a post says and where it goes, after the platform, empty-post, media and rich-post rules. */
export interface PostContent {
  caption: string;
  /** The overrides of the targeted networks that have text of their own; absent when none. */
  captions?: Partial<Record<NetworkId, string>>;
  platforms: NetworkId[];
  /** The first media item's reference (the contract's one media); the whole list is in `rich`. */
  media: string | null;
  /** What a rich post adds (store/areas/posts.ts RichContent); absent when it uses none of it. */
  rich?: RichContent;
}

/** What a request says a post should be, before the rules (body shape already checked). */
export interface PostInput {
  caption?: string;
  captions?: Partial<Record<NetworkId, string>>;
  platforms: readonly string[];
  media?: PostMediaInput | null;
  thread?: readonly ThreadPart[] | null;
  split?: Split;
  first_comment?: string | null;
  poll?: Poll | null;
  options?: NetworkOptions | null;
}

/**
 * Steps 2–4 of decisions.md's check order: platforms resolve, the post is not empty, media rules (every
 * item, against each network's `carries`), then the rich-post rules (rich-rules.ts: thread parts,
 * poll, options). The same for a new post and for a post as an edit leaves it. Each refusal names the
 * network and the fix; nothing is stored before all have passed.
 */
export async function checkPostContent(
  deps: ServiceDeps,
  caller: Caller,
  input: PostInput,
): Promise<PostContent> {
  const platforms = await resolvePlatforms(deps, caller, input.platforms);
  const caption = input.caption ?? "";
  const captions = overridesFor(platforms, input.captions);
  const refs = mediaRefs(input.media);
  const media = refs[0]?.ref ?? null;
  // Empty when no targeted network has text: an override counts for its network only.
  const hasText = platforms.some((p) => textOf({ caption, captions }, p).trim() !== "");
  if (!hasText && media === null) {
    throw badRequest("The post is empty: give a caption (or text per network in captions), media, or both.");
  }
  const checked = await checkMedia(deps, caller, platforms, refs);
  const rich = await checkRich(deps, caller, platforms, input, refs, checked);
  return { caption, ...(captions && { captions }), platforms, media, ...(rich && { rich }) };
}

export type PostMode = { kind: "draft" } | { kind: "now" } | { kind: "scheduled"; at: number };

/**
 * Stores a new post (after the plan limit, the last check) and, for publish-now, fans it out before
 * returning. Scheduled posts write post.scheduled and wake the scheduler.
 *
 * `mode` may be a function that works out the mode from what is stored (the next free slot): it runs
 * with the plan limit check and the insert as one step of the user's queue, so concurrent requests
 * can neither pass the limit together nor take the same slot.
 *
 * Each write stores `answer` for the post as it writes it (Idempotency-Key): the insert keeps the post
 * as created, so a retry after a crash replays it; publish-now then keeps the published post. A
 * publish-now whose networks all publish in place (the sandbox) is written once, already published
 * (publishInPlace).
 */
export async function savePost(
  deps: ServiceDeps,
  caller: Caller,
  content: PostContent,
  mode: PostMode | (() => Promise<PostMode>),
  now: number,
  answer: PostAnswer,
): Promise<{ post: PostRecord; targets: TargetRecord[] }> {
  const { post, targets, begun } = await deps.perUser.run(caller.user.id, async () => {
    const resolved = typeof mode === "function" ? await mode() : mode;
    await checkMonthlyPosts(deps, caller, now);
    if (resolved.kind === "now") {
      await refuseBeyondPace(deps, caller.user.id, caller.key.mode, content.platforms, now);
    }
    const fresh = newPost(caller, content, resolved, now);
    if (resolved.kind === "now" && publishesInPlace(deps, fresh.post)) {
      return { ...(await publishInPlace(deps, fresh.post, fresh.targets, answer)), begun: null };
    }
    // Publish now: the targets are written with their first attempt already begun (in flight), in the
    // insert's own transaction and in this step, so the next request's pacing check counts them and a
    // crash after it leaves them to the in-flight sweep, as a separate write to begin them did.
    const saved = await insertNewPost(deps, fresh, answer);
    if (resolved.kind !== "now") return { ...saved, begun: null };
    const begun: Promise<BegunAttempts> = Promise.resolve({ targets: saved.targets, started: saved.targets });
    return { ...saved, begun };
  });
  if (begun === null) return { post, targets };
  return publishNow(deps, post, now, answer, begun);
}

/** A new post as it is first written: its targets (begun, for publish-now) and its events. */
interface NewPost {
  post: PostRecord;
  targets: TargetRecord[];
  events: NewEvent[];
}

function newPost(caller: Caller, content: PostContent, mode: PostMode, now: number): NewPost {
  const status = mode.kind === "draft" ? "draft" : mode.kind === "scheduled" ? "scheduled" : "publishing";
  const scheduledAt = mode.kind === "scheduled" ? mode.at : null;
  const post: PostRecord = {
    id: newId("post", now),
    user_id: caller.user.id,
    mode: caller.key.mode,
    ...content,
    status,
    scheduled_at: scheduledAt,
    published_at: null,
    created_at: now,
  };
  const pending = pendingTargets(post);
  // As store.beginTargetAttempts would start them (see savePost).
  const targets = mode.kind === "now" ? pending.map((t) => begunInPlace(t, now)) : pending;
  const events: NewEvent[] = [];
  if (scheduledAt !== null) {
    events.push({
      id: newId("evt", now),
      user_id: post.user_id,
      type: "post.scheduled",
      created: Math.floor(now / 1000),
      data: { post_id: post.id, platforms: post.platforms, scheduled_at: scheduledAt },
    });
  }
  return { post, targets, events };
}

async function insertNewPost(
  deps: ServiceDeps,
  { post, targets, events }: NewPost,
  answer: PostAnswer,
): Promise<{ post: PostRecord; targets: TargetRecord[] }> {
  await deps.store.insertPost(post, targets, { events, idempotency: answer(post, targets) });
  if (post.scheduled_at !== null) deps.scheduler.notify(post.scheduled_at);
  return { post, targets };
}

/** Network ids in the order sent: unknown ids ignored, duplicates collapsed, unconnected ones dropped. */
async function resolvePlatforms(
  deps: ServiceDeps,
  caller: Caller,
  requested: readonly string[],
): Promise<NetworkId[]> {
  const accounts = await deps.store.listAccounts(caller.user.id, caller.key.mode);
  const connected = new Set(accounts.map((a) => a.platform));
  const out: NetworkId[] = [];
  for (const id of requested) {
    if (isNetworkId(id) && connected.has(id) && !out.includes(id)) out.push(id);
  }
  if (out.length === 0) throw badRequest(CONTRACT_MESSAGES.noConnectedNetwork);
  return out;
}

export async function checkMonthlyPosts(deps: ServiceDeps, caller: Caller, now: number): Promise<void> {
  const plan = caller.user.plan;
  const allowance = PLANS[plan].posts_per_month;
  if (allowance === null) return;
  const used = await deps.store.countPostsCreatedSince(caller.user.id, startOfMonth(now));
  if (used >= allowance) {
    throw badRequest(
      `The ${plan} plan allows ${allowance} posts a month and this month's are used; upgrade the plan or wait until the month turns (UTC).`,
    );
  }
}

/**
 * One pending target per network, holding what it will publish (posting/plan.ts): the text (the first
 * part's), and for a rich post every part (pending), the first comment and notes on what was adapted.
 */
export function pendingTargets(post: PostRecord): TargetRecord[] {
  return post.platforms.map((platform) => {
    const plan = planTarget(post, platform);
    return {
      post_id: post.id,
      platform,
      status: "pending",
      text: plan.parts[0]!.text,
      permalink: null,
      error: null,
      published_at: null,
      reach: 0,
      likes: 0,
      comments: 0,
      shares: 0,
      ...NOT_ATTEMPTED,
      // A post that is not rich keeps the target as it always was: one part, its text.
      ...(post.rich && {
        parts: plan.parts.map((part) => ({
          text: part.text,
          media: part.media,
          status: "pending" as const,
          remote_id: null,
          permalink: null,
        })),
        first_comment: plan.firstComment,
      }),
      ...(plan.notes.length > 0 && { notes: plan.notes }),
    };
  });
}
