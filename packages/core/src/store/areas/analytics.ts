import type { NetworkId } from "../../contract/networks.ts";
import type { Effects } from "./effects.ts";
import type { NewEvent } from "./outbox.ts";
import type { ClaimedTarget, TargetMetrics, TargetRecord } from "./targets.ts";

/** One network's metrics summed over the targets it published for a user's published posts. */
export interface PlatformTotals extends TargetMetrics {
  platform: NetworkId;
  /** How many of those targets (one per post): the published posts this network carried. */
  posts: number;
}

/**
 * Metrics: the reads of the networks' figures, the sums the analytics endpoints answer with, and the
 * daily analytics event, settled once per day.
 */
export interface AnalyticsStore {
  /**
   * Claims up to `limit` published targets whose metrics read is due (metrics_due_at at or before
   * `now`), earliest first, moving metrics_due_at to `leaseUntil` so no other worker reads them
   * meanwhile.
   */
  claimDueMetricReads(now: number, leaseUntil: number, limit: number): Promise<ClaimedTarget[]>;
  /** The earliest metrics_due_at, or null. */
  nextMetricsReadAt(): Promise<number | null>;
  /** Sets when the target's figures are read next (null: never again) and how many reads were made. */
  scheduleMetricsRead(
    postId: string,
    platform: NetworkId,
    dueAt: number | null,
    reads: number,
  ): Promise<void>;

  /**
   * Records metrics a network reported; each figure only grows. Null when the target does not exist.
   * `effectsFor` gets the target as updated and is written with it.
   */
  reportMetrics(
    postId: string,
    platform: NetworkId,
    metrics: TargetMetrics,
    effectsFor?: (target: TargetRecord) => Effects,
  ): Promise<TargetRecord | null>;
  /** Targets of the user's published posts, for analytics. */
  listPublishedTargets(userId: string): Promise<TargetRecord[]>;
  countPublishedPosts(userId: string): Promise<number>;
  /**
   * Per network, the user's published posts' targets that network published, summed (reach, likes,
   * comments, shares) and counted, in no particular order; networks without such a target are absent.
   * What the analytics summary reads, aggregated where the rows are instead of loaded one by one.
   */
  sumPublishedMetricsByPlatform(userId: string): Promise<PlatformTotals[]>;

  // Daily analytics
  /** The last UTC day (YYYY-MM-DD) settled for the user by settleAnalyticsDay, or null before the first. */
  lastAnalyticsDay(userId: string): Promise<string | null>;
  /**
   * Settles the user's analytics.daily for `date` (YYYY-MM-DD, UTC) in one step: when `date` is later
   * than the last day settled, writes `events` (the day's event, or none when no endpoint listens) and
   * records `date` as the last day settled, answering true; otherwise writes nothing and answers false.
   * A day is therefore written once however often it is tried, a crash included, and never after a later
   * one.
   */
  settleAnalyticsDay(userId: string, date: string, events: NewEvent[]): Promise<boolean>;
}
