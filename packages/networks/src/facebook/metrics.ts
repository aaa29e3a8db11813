import type { AccountSession, PublishedPost, TargetMetrics } from "@socialpub/core";
import { type FacebookApiConfig, graphCall } from "./api.ts";

/** Reactions and comments are asked for as totals only (`summary`, `limit(0)`): no one's names. */
const SUMMARIES = "reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0)";

interface PostFields {
  reactions?: { summary?: { total_count?: number } };
  comments?: { summary?: { total_count?: number } };
  shares?: { count?: number };
}

/**
 * A Page post's counts, read with the Page token under `pages_read_engagement` (a scope the connect
 * already asks for): its reactions as likes, its comments, and its shares (Graph leaves `shares` out
 * until someone shares). Reach needs Page insights (`read_insights`, which this app does not ask for),
 * so reach is left alone. A video's shares are not in Graph's Video node: they stay 0.
 */
export async function readFacebookMetrics(
  config: FacebookApiConfig,
  account: AccountSession,
  post: PublishedPost,
  signal: AbortSignal,
): Promise<Partial<TargetMetrics>> {
  const token = String(account.credentials.access_token ?? "");
  // A Page post's id is {page-id}_{post-id}; a video's is its own, and a Video has no `shares` field.
  const fields = post.id.includes("_") ? `${SUMMARIES},shares` : SUMMARIES;
  const answer = (await graphCall(
    config,
    token,
    "GET",
    `/${encodeURIComponent(post.id)}?fields=${encodeURIComponent(fields)}`,
    null,
    signal,
    true,
  )) as PostFields | null;
  return {
    likes: answer?.reactions?.summary?.total_count ?? 0,
    comments: answer?.comments?.summary?.total_count ?? 0,
    shares: answer?.shares?.count ?? 0,
  };
}
