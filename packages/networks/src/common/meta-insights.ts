import type { AccountSession, PublishedPost } from "@socialpub/core";
import { type MetaGraphConfig, metaCall } from "./meta-graph.ts";

interface InsightsAnswer {
  data?: { name?: string; values?: { value?: number }[]; total_value?: { value?: number } }[];
}

/**
 * A published media's lifetime insights (GET /{media-id}/insights?metric=…), by metric name, as Threads
 * and Instagram answer them: `{data: [{name, period: "lifetime", values: [{value}]}]}` (a metric may
 * come as `total_value` instead). A metric left out of the answer counts 0.
 */
export async function readMetaInsights(
  graph: MetaGraphConfig,
  account: AccountSession,
  post: PublishedPost,
  metrics: readonly string[],
  signal: AbortSignal,
): Promise<Record<string, number>> {
  const token = String(account.credentials.access_token ?? "");
  const answer = (await metaCall(
    graph,
    token,
    "GET",
    `/${encodeURIComponent(post.id)}/insights`,
    { metric: metrics.join(",") },
    signal,
  )) as InsightsAnswer;
  const figures: Record<string, number> = Object.fromEntries(metrics.map((m) => [m, 0]));
  for (const entry of answer.data ?? []) {
    if (!entry.name || !(entry.name in figures)) continue;
    const value = entry.values?.[0]?.value ?? entry.total_value?.value ?? 0;
    figures[entry.name] = Number.isFinite(value) ? value : 0;
  }
  return figures;
}
