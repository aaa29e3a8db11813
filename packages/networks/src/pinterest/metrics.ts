import type { AccountSession, PublishedPost, TargetMetrics } from "@socialpub/core";
import { type PinterestApiConfig, pinterestCall } from "./api.ts";

/** Pinterest reports a Pin's figures for at most the last 90 days. */
const WINDOW_DAYS = 89;
const METRICS = ["IMPRESSION", "SAVE", "TOTAL_COMMENTS", "TOTAL_REACTIONS"];

interface MetricsByApp {
  [appType: string]: {
    lifetime_metrics?: Record<string, number>;
    summary_metrics?: Record<string, number>;
  };
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A Pin's figures from GET /v5/pins/{pin_id}/analytics (`pins:read`, which the connect asks for): its
 * impressions over the last 90 days (Pinterest's window, which covers the whole metrics schedule) as
 * reach, its reactions as likes, its comments, and its saves as shares (a save is how a Pin spreads).
 */
export async function readPinterestMetrics(
  config: PinterestApiConfig,
  account: AccountSession,
  post: PublishedPost,
  signal: AbortSignal,
): Promise<Partial<TargetMetrics>> {
  const token = String(account.credentials.access_token ?? "");
  const now = config.now();
  const query = new URLSearchParams({
    start_date: day(now - WINDOW_DAYS * 86_400_000),
    end_date: day(now),
    metric_types: METRICS.join(","),
  });
  const answer = (await pinterestCall(
    config,
    token,
    "GET",
    `/pins/${encodeURIComponent(post.id)}/analytics?${query}`,
    undefined,
    signal,
    true,
  )) as MetricsByApp | null;
  const all = answer?.all ?? answer?.ALL ?? Object.values(answer ?? {})[0];
  const figure = (name: string) => all?.lifetime_metrics?.[name] ?? all?.summary_metrics?.[name] ?? 0;
  return {
    reach: figure("IMPRESSION"),
    likes: figure("TOTAL_REACTIONS"),
    comments: figure("TOTAL_COMMENTS"),
    shares: figure("SAVE"),
  };
}
