import { PLANS } from "../contract/plans.ts";
import type { Account, CurrentUser, Post, Target } from "../contract/resources.ts";
import type { ContentMedia } from "../contract/rich.ts";
import type { AccountRecord, PostRecord, TargetMetrics, TargetRecord, UserRecord } from "../store/types.ts";

/**
 * Engagement rate as a percentage with two decimals: (likes + comments + shares) / reach × 100, and 0
 * while nothing has reach. Integer arithmetic first, so 1/3 gives 33.33 and halves round up.
 */
export function engagementRate(interactions: number, reach: number): number {
  if (reach <= 0) return 0;
  return Math.round((interactions * 10_000) / reach) / 100;
}

export const interactionsOf = (t: Pick<TargetRecord, "likes" | "comments" | "shares">) =>
  t.likes + t.comments + t.shares;

export function toPost(post: PostRecord, targets: TargetRecord[]): Post {
  const totals = { reach: 0, likes: 0, comments: 0, shares: 0 };
  for (const t of targets) {
    totals.reach += t.reach;
    totals.likes += t.likes;
    totals.comments += t.comments;
    totals.shares += t.shares;
  }
  return toPostWithTotals(post, totals);
}

/** A post from its metrics already summed over its targets (store.sumTargetMetrics). */
export function toPostWithTotals(post: PostRecord, totals: TargetMetrics): Post {
  const reach = totals.reach;
  const interactions = interactionsOf(totals);
  return {
    id: post.id,
    caption: post.caption,
    platforms: post.platforms,
    status: post.status,
    has_media: post.media !== null,
    scheduled_at: post.scheduled_at,
    published_at: post.published_at,
    reach,
    engagement_rate: engagementRate(interactions, reach),
  };
}

/**
 * A target as answers show it. `media` is what it carries, as targetMedia (target-media.ts) resolves
 * it; none when not given.
 */
export function toTarget(t: TargetRecord, media: ContentMedia[] = []): Target {
  return {
    platform: t.platform,
    status: t.status,
    text: t.text,
    permalink: t.permalink,
    error: t.error,
    published_at: t.published_at,
    reach: t.reach,
    likes: t.likes,
    comments: t.comments,
    shares: t.shares,
    // A target written before rich posts has one part: its text, with its own status and permalink.
    parts: (t.parts ?? [{ text: t.text, status: t.status, permalink: t.permalink }]).map((p) => ({
      text: p.text,
      status: p.status,
      permalink: p.permalink,
    })),
    media,
    first_comment: t.first_comment
      ? { status: t.first_comment.status, permalink: t.first_comment.permalink, error: t.first_comment.error }
      : null,
    notes: t.notes ?? [],
  };
}

export function toAccount(a: AccountRecord): Account {
  return { platform: a.platform, handle: a.handle, followers: a.followers, health: a.health };
}

export function toCurrentUser(user: UserRecord, apiCallsThisMonth: number): CurrentUser {
  const limits = PLANS[user.plan];
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    studio: user.studio,
    plan: user.plan,
    limits: {
      profiles: limits.profiles,
      posts_per_month: limits.posts_per_month,
      api_calls_per_month: limits.api_calls_per_month,
    },
    usage: { api_calls_this_month: apiCallsThisMonth },
  };
}
