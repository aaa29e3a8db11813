import type { AccountSession, PublishedPost, TargetMetrics } from "@socialpub/core";
import { type RedditApiConfig, redditCall } from "./api.ts";

interface InfoListing {
  data?: { children?: { data?: { score?: number; num_comments?: number; num_crossposts?: number } }[] };
}

/**
 * A post's counts from /api/info (the `read` scope): its score as likes (upvotes less downvotes, never
 * below 0), its comments, and its crossposts as shares. Reddit reports no views to an app (`view_count`
 * stays null), so reach is left alone. A post Reddit no longer lists (removed) answers nothing.
 */
export async function readRedditMetrics(
  config: RedditApiConfig,
  account: AccountSession,
  post: PublishedPost,
  signal: AbortSignal,
): Promise<Partial<TargetMetrics>> {
  const token = String(account.credentials.access_token ?? "");
  const answer = (await redditCall(
    config,
    token,
    "GET",
    `/api/info?id=t3_${encodeURIComponent(post.id)}&raw_json=1`,
    null,
    signal,
    true,
  )) as InfoListing | null;
  const found = answer?.data?.children?.[0]?.data;
  if (!found) return {};
  return {
    likes: Math.max(0, found.score ?? 0),
    comments: found.num_comments ?? 0,
    shares: found.num_crossposts ?? 0,
  };
}
