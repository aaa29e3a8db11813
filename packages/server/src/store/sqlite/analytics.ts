import type {
  ClaimedTarget,
  Effects,
  NetworkId,
  NewEvent,
  PlatformTotals,
  TargetMetrics,
  TargetRecord,
} from "@socialpub/core";
import { toTarget } from "../rows.ts";
import type { SqliteCore } from "./core.ts";
import { writeEvents } from "./outbox.ts";
import { readPost } from "./posts.ts";

export async function claimDueMetricReads(
  core: SqliteCore,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<ClaimedTarget[]> {
  return core.write(() => {
    const due = core.all(
      `SELECT t.*, p.id AS p_id FROM targets t JOIN posts p ON p.id = t.post_id
       WHERE t.metrics_due_at IS NOT NULL AND t.metrics_due_at <= ? AND t.status = 'published'
       ORDER BY t.metrics_due_at LIMIT ?`,
      now,
      Math.max(0, limit),
    );
    return due.map((row) => {
      const target = toTarget(row);
      core.run(
        "UPDATE targets SET metrics_due_at = ? WHERE post_id = ? AND platform = ?",
        leaseUntil,
        target.post_id,
        target.platform,
      );
      const post = readPost(core, target.post_id)!;
      return { post, target: { ...target, metrics_due_at: leaseUntil } };
    });
  });
}

export async function nextMetricsReadAt(core: SqliteCore): Promise<number | null> {
  const row = core.get(
    "SELECT min(metrics_due_at) AS at FROM targets WHERE metrics_due_at IS NOT NULL AND status = 'published'",
  );
  return (row?.at as number | null) ?? null;
}

export async function scheduleMetricsRead(
  core: SqliteCore,
  postId: string,
  platform: NetworkId,
  dueAt: number | null,
  reads: number,
): Promise<void> {
  await core.write(() =>
    core.run(
      "UPDATE targets SET metrics_due_at = ?, metrics_reads = ? WHERE post_id = ? AND platform = ?",
      dueAt,
      reads,
      postId,
      platform,
    ),
  );
}

export async function reportMetrics(
  core: SqliteCore,
  postId: string,
  platform: NetworkId,
  metrics: TargetMetrics,
  effectsFor?: (target: TargetRecord) => Effects,
): Promise<TargetRecord | null> {
  return core.write(() => {
    const row = core.get(
      `UPDATE targets SET reach = max(reach, ?), likes = max(likes, ?), comments = max(comments, ?),
                          shares = max(shares, ?)
       WHERE post_id = ? AND platform = ?
       RETURNING *`,
      metrics.reach,
      metrics.likes,
      metrics.comments,
      metrics.shares,
      postId,
      platform,
    );
    if (!row) return null;
    const target = toTarget(row);
    core.writeEffects(effectsFor?.(target));
    return target;
  });
}

export async function listPublishedTargets(core: SqliteCore, userId: string): Promise<TargetRecord[]> {
  return core
    .all(
      `SELECT t.* FROM targets t JOIN posts p ON p.id = t.post_id
     WHERE p.user_id = ? AND p.status = 'published' AND t.status = 'published'
     ORDER BY p.id, t.position`,
      userId,
    )
    .map(toTarget);
}

export async function countPublishedPosts(core: SqliteCore, userId: string): Promise<number> {
  const row = core.get("SELECT count(*) AS n FROM posts WHERE user_id = ? AND status = 'published'", userId);
  return (row?.n as number) ?? 0;
}

export async function sumPublishedMetricsByPlatform(
  core: SqliteCore,
  userId: string,
): Promise<PlatformTotals[]> {
  // Summed by SQLite: one row per network, however many posts the user has.
  return core
    .all(
      `SELECT t.platform, count(*) AS posts, sum(t.reach) AS reach, sum(t.likes) AS likes,
            sum(t.comments) AS comments, sum(t.shares) AS shares
     FROM targets t JOIN posts p ON p.id = t.post_id
     WHERE p.user_id = ? AND p.status = 'published' AND t.status = 'published'
     GROUP BY t.platform`,
      userId,
    )
    .map((row) => ({
      platform: row.platform as NetworkId,
      posts: row.posts as number,
      reach: row.reach as number,
      likes: row.likes as number,
      comments: row.comments as number,
      shares: row.shares as number,
    }));
}

export async function lastAnalyticsDay(core: SqliteCore, userId: string): Promise<string | null> {
  const row = core.get("SELECT last_date FROM analytics_days WHERE user_id = ?", userId);
  return row ? (row.last_date as string) : null;
}

export async function settleAnalyticsDay(
  core: SqliteCore,
  userId: string,
  date: string,
  events: NewEvent[],
): Promise<boolean> {
  return core.write(() => {
    const settled =
      core.run(
        `INSERT INTO analytics_days (user_id, last_date) VALUES (?, ?)
         ON CONFLICT (user_id) DO UPDATE SET last_date = excluded.last_date
         WHERE excluded.last_date > analytics_days.last_date`,
        userId,
        date,
      ) > 0;
    if (settled) writeEvents(core, events);
    return settled;
  });
}
