import type { AccountSession, PublishedPost, TargetMetrics } from "@socialpub/core";
import { type TikTokApiConfig, tiktokCall } from "./api.ts";

/**
 * A video's counts through the Display API (POST /v2/video/query/), which needs the video.list scope:
 * views as reach, likes, comments, shares. A grant without video.list, or a post that has no public id
 * yet (private posts never get one), reads nothing.
 */
export async function readTikTokMetrics(
  api: TikTokApiConfig,
  account: AccountSession,
  post: PublishedPost,
  signal: AbortSignal,
): Promise<Partial<TargetMetrics>> {
  const scopes = String(account.credentials.scope ?? "").split(/[\s,]+/);
  if (!scopes.includes("video.list") || !/^\d+$/.test(post.id)) return {};
  const fields = "id,view_count,like_count,comment_count,share_count";
  const data = await tiktokCall(
    api,
    String(account.credentials.access_token ?? ""),
    `/v2/video/query/?fields=${fields}`,
    { filters: { video_ids: [post.id] } },
    signal,
    true,
  );
  const videos = Array.isArray(data.videos) ? (data.videos as Record<string, unknown>[]) : [];
  const video = videos.find((v) => String(v.id) === post.id);
  if (!video) return {};
  const count = (v: unknown) => (typeof v === "number" && v >= 0 ? v : 0);
  return {
    reach: count(video.view_count),
    likes: count(video.like_count),
    comments: count(video.comment_count),
    shares: count(video.share_count),
  };
}
