import { NETWORK_RULES, type NetworkId } from "../../contract/networks.ts";
import type { MediaItem, Poll } from "../../contract/rich.ts";
import { mediaRefs, overridesFor, postMedia, textOf } from "../../posting/content.ts";
import type { MediaRef, PartContent, PostRecord, RichContent } from "../../store/types.ts";
import type { Caller, ServiceDeps } from "../context.ts";
import { badRequest } from "../http-error.ts";
import { type CheckedMedia, checkMedia, listOf } from "./media-rules.ts";
import type { PostInput } from "./post-rules.ts";

/**
 * The rich-post steps of the check order (decisions.md "Rich posts"), after the post's own media:
 * each thread part (not empty; its media checked as the post's, against the networks that thread),
 * the poll (networks without polls, each network's bounds, a poll with media), and the per-network
 * options (their keys are checked by the body's schema already). Answers what a post keeps of them
 * (PostRecord.rich), or undefined when it uses none.
 */
export async function checkRich(
  deps: ServiceDeps,
  caller: Caller,
  platforms: readonly NetworkId[],
  input: PostInput,
  refs: readonly MediaRef[],
  media: readonly CheckedMedia[],
): Promise<RichContent | undefined> {
  const rich: RichContent = {};
  if (refs.length > 1 || refs.some((r) => r.alt !== undefined)) rich.media = [...refs];

  if (input.thread && input.thread.length > 0) {
    // A later part's media goes out only where the network threads; elsewhere it is not carried.
    const threading = platforms.filter((p) => NETWORK_RULES[p].carries.threads !== "joined");
    const parts: PartContent[] = [];
    for (const [i, part] of input.thread.entries()) {
      const caption = part.caption ?? "";
      const captions = overridesFor(platforms, part.captions);
      const partRefs = mediaRefs(part.media);
      const hasText = platforms.some((p) => textOf({ caption, captions }, p).trim() !== "");
      if (!hasText && partRefs.length === 0) {
        throw badRequest(
          `thread[${i}] is empty: give it a caption (or text per network in captions), media, or both; or remove it from thread.`,
        );
      }
      await checkMedia(deps, caller, threading, partRefs, `thread[${i}]`);
      parts.push({
        caption,
        ...(captions && { captions }),
        ...(partRefs.length > 0 && { media: partRefs }),
      });
    }
    rich.thread = parts;
  }
  if (input.split === "thread") rich.split = "thread";
  if (typeof input.first_comment === "string") rich.first_comment = input.first_comment;
  if (input.poll) {
    checkPoll(platforms, input.poll, media.length > 0);
    rich.poll = input.poll;
  }
  if (input.options) {
    const options = Object.fromEntries(Object.entries(input.options).filter(([, v]) => v !== undefined));
    if (Object.keys(options).length > 0) rich.options = options;
  }
  return Object.keys(rich).length > 0 ? rich : undefined;
}

/**
 * A poll goes only where the network's API takes one, within its bounds: outside them it is refused
 * where the network refuses (`outside: "refused"`) and carried as the network runs it elsewhere (a note
 * on the target, planned in posting/poll.ts). A poll with media is refused where the network refuses it.
 */
function checkPoll(platforms: readonly NetworkId[], poll: Poll, hasMedia: boolean): void {
  const without = platforms.filter((p) => NETWORK_RULES[p].carries.poll === null);
  if (without.length > 0) {
    const one = without.length === 1;
    throw badRequest(
      `poll: ${listOf(without)} ${one ? "takes" : "take"} no poll: remove the poll, or remove ${one ? "it" : "them"} from platforms.`,
    );
  }
  for (const platform of platforms) {
    const rule = NETWORK_RULES[platform].carries.poll!;
    const fix = `or remove ${platform} from platforms.`;
    if (hasMedia && !rule.withMedia) {
      throw badRequest(
        `poll: ${platform} takes no poll on a post with media: remove the media or the poll, ${fix}`,
      );
    }
    if (rule.outside !== "refused") continue;
    if (poll.options.length > rule.maxOptions) {
      throw badRequest(
        `poll: ${platform} takes at most ${rule.maxOptions} options (the poll has ${poll.options.length}): give fewer, ${fix}`,
      );
    }
    const long = poll.options.findIndex((o) => [...o].length > rule.optionMaxLength);
    if (long !== -1) {
      throw badRequest(
        `poll: ${platform} takes options of at most ${rule.optionMaxLength} characters (options[${long}] has ${[...poll.options[long]!].length}): shorten it, ${fix}`,
      );
    }
    const minutes = poll.duration_minutes;
    if (minutes < rule.minMinutes || minutes > rule.maxMinutes) {
      throw badRequest(
        `poll: ${platform} takes a duration_minutes from ${rule.minMinutes} to ${rule.maxMinutes} (the poll has ${minutes}): change it, ${fix}`,
      );
    }
  }
}

/** A stored media list as a request gives it again (an edit that leaves the media as it was). */
export function mediaInput(refs: readonly MediaRef[]): MediaItem[] {
  return refs.map((r) => {
    if (r.alt === undefined) return r.ref;
    return r.ref.startsWith("med_") ? { id: r.ref, alt: r.alt } : { url: r.ref, alt: r.alt };
  });
}

/**
 * A stored post's content as a request would give it: what an edit leaves of it for the fields the
 * edit does not send.
 */
export function storedInput(post: PostRecord): Omit<PostInput, "platforms"> {
  const rich = post.rich;
  const media = postMedia(post);
  return {
    caption: post.caption,
    ...(post.captions && { captions: post.captions }),
    media: media.length === 0 ? null : mediaInput(media),
    thread: rich?.thread?.map((part) => ({
      caption: part.caption,
      ...(part.captions && { captions: part.captions }),
      ...(part.media && { media: mediaInput(part.media) }),
    })),
    ...(rich?.split && { split: rich.split }),
    first_comment: rich?.first_comment ?? null,
    poll: rich?.poll ?? null,
    options: rich?.options ?? null,
  };
}
