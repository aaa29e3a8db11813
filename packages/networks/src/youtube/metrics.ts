import type { AccountSession, TargetMetrics } from "@socialpub/core";
import { type YouTubeApiConfig, youtubeGet } from "./api.ts";

/**
 * A video's statistics (videos.list?part=statistics): views as reach, likes, comments. YouTube reports
 * no shares. Google gives the counts as strings; a count the owner hides is absent and left alone.
 */
export async function readVideoMetrics(
  api: YouTubeApiConfig,
  account: AccountSession,
  videoId: string,
  signal: AbortSignal,
): Promise<Partial<TargetMetrics>> {
  // The service refreshes an ending token before a read, as before a publish.
  const token = String(account.credentials.access_token ?? "");
  const answer = await youtubeGet(api, token, "/videos", { part: "statistics", id: videoId }, signal);
  const item = (Array.isArray(answer.items) ? answer.items[0] : undefined) as
    | { statistics?: Record<string, unknown> }
    | undefined;
  const stats = item?.statistics;
  if (!stats) return {};
  const count = (name: string) => {
    const value = Number(stats[name]);
    return Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
  };
  const figures: Partial<TargetMetrics> = {};
  const reach = count("viewCount");
  const likes = count("likeCount");
  const comments = count("commentCount");
  if (reach !== undefined) figures.reach = reach;
  if (likes !== undefined) figures.likes = likes;
  if (comments !== undefined) figures.comments = comments;
  return figures;
}
