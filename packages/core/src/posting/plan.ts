import { NETWORK_RULES, type NetworkId } from "../contract/networks.ts";
import type { PollInput } from "../networks/adapter.ts";
import type { FirstCommentRecord, PostRecord } from "../store/types.ts";
import { adaptText } from "../text/adapt.ts";
import { measure } from "../text/measure.ts";
import { type PlannedPart, planParts } from "./parts.ts";

/** What one network gets of a post: its messages, first comment, poll and options, and notes in words. */
export interface TargetPlan {
  parts: PlannedPart[];
  /** The first comment as this network gets it; null when the post has none. */
  firstComment: FirstCommentRecord | null;
  poll: PollInput | null;
  options: Readonly<Record<string, unknown>> | undefined;
  notes: string[];
}

/**
 * The plan of `post` for `platform` (decisions.md "Rich posts"): what publishing sends, what
 * POST /posts/validate answers and what the target records. Everything a network cannot carry was
 * refused when the post was made (the check order), so what is left here is adapted or noted.
 */
export function planTarget(post: PostRecord, platform: NetworkId): TargetPlan {
  const { parts, notes } = planParts(post, platform);
  const firstComment = planFirstComment(post, platform, notes);
  const poll = planPoll(post, platform, notes);
  return { parts, firstComment, poll, options: optionsFor(post, platform), notes };
}

/** The post's options for `platform` (options for other networks are not its business). */
export function optionsFor(
  post: PostRecord,
  platform: NetworkId,
): Readonly<Record<string, unknown>> | undefined {
  const all: Partial<Record<string, Readonly<Record<string, unknown>>>> = post.rich?.options ?? {};
  return all[platform];
}

/**
 * The first comment where the network takes one, adapted to its limit; pinterest and tiktok take none
 * through their APIs: the post publishes without it, and the target says so.
 */
function planFirstComment(post: PostRecord, platform: NetworkId, notes: string[]): FirstCommentRecord | null {
  const given = post.rich?.first_comment;
  if (given === undefined) return null;
  const rule = NETWORK_RULES[platform];
  if (!rule.carries.firstComment) {
    notes.push(`first comment not carried: ${rule.name} cannot add one through its API`);
    return { text: given, status: "not_carried", permalink: null, error: null };
  }
  const text = adaptText(given, platform, false);
  if (text !== given) {
    notes.push(
      `first comment shortened from ${measure(given, rule.lengthUnit)} to ${measure(text, rule.lengthUnit)} characters, to fit the ${rule.name} limit of ${rule.textLimit.toLocaleString("en-US")}`,
    );
  }
  return { text, status: "pending", permalink: null, error: null };
}

/**
 * The poll as the network takes it. Bounds a network refuses were refused when the post was made; where
 * it runs a poll its own way (`outside: "noted"`: Threads' 24 hours; a Telegram poll longer than its
 * open period stays open), what does not fit is left to the network and noted.
 */
export function planPoll(post: PostRecord, platform: NetworkId, notes: string[] = []): PollInput | null {
  const poll = post.rich?.poll;
  const rule = NETWORK_RULES[platform];
  const bounds = rule.carries.poll;
  if (!poll || !bounds) return null;
  let options = poll.options;
  if (options.length > bounds.maxOptions) {
    notes.push(
      `poll options after the first ${bounds.maxOptions} not carried: ${rule.name} takes ${bounds.maxOptions}`,
    );
    options = options.slice(0, bounds.maxOptions);
  }
  options = options.map((option, i) => {
    if ([...option].length <= bounds.optionMaxLength) return option;
    notes.push(
      `poll option ${i + 1} shortened to fit the ${rule.name} limit of ${bounds.optionMaxLength} characters`,
    );
    return adaptOption(option, bounds.optionMaxLength);
  });
  const minutes = poll.duration_minutes;
  const within = minutes >= bounds.minMinutes && minutes <= bounds.maxMinutes;
  if (!within) {
    const takes =
      bounds.minMinutes === bounds.maxMinutes
        ? `${bounds.minMinutes} minutes`
        : `${bounds.minMinutes} to ${bounds.maxMinutes} minutes`;
    notes.push(
      `poll duration of ${minutes} minutes not carried: ${rule.name} takes ${takes}, so the poll runs as ${rule.name} runs it`,
    );
  }
  return { options, durationMinutes: within ? minutes : null };
}

function adaptOption(option: string, max: number): string {
  return `${[...option]
    .slice(0, max - 1)
    .join("")
    .trimEnd()}…`;
}
