import type {
  ClaimedTarget,
  Effects,
  NetworkId,
  NewEvent,
  PlatformTotals,
  TargetMetrics,
  TargetRecord,
} from "@socialpub/core";
import { toPost, toTarget } from "../rows.ts";
import type { PostgresCore } from "./core.ts";
import { writeEvents } from "./outbox.ts";

export async function claimDueMetricReads(
  core: PostgresCore,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<ClaimedTarget[]> {
  return core.tx(async (tx) => {
    const rows = await tx`
      UPDATE targets SET metrics_due_at = ${leaseUntil}
      WHERE (post_id, platform) IN (
        SELECT post_id, platform FROM targets
        WHERE metrics_due_at IS NOT NULL AND metrics_due_at <= ${now} AND status = 'published'
        ORDER BY metrics_due_at LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING *`;
    const claimed: ClaimedTarget[] = [];
    for (const row of rows) {
      const target = toTarget(row);
      const [post] = await tx`SELECT * FROM posts WHERE id = ${target.post_id}`;
      if (post) claimed.push({ post: toPost(post), target });
    }
    return claimed;
  });
}

export async function nextMetricsReadAt(core: PostgresCore): Promise<number | null> {
  const row = await core.one(
    () => core.sql`SELECT min(metrics_due_at) AS at FROM targets
                   WHERE metrics_due_at IS NOT NULL AND status = 'published'`,
  );
  return (row?.at as number | null) ?? null;
}

export async function scheduleMetricsRead(
  core: PostgresCore,
  postId: string,
  platform: NetworkId,
  dueAt: number | null,
  reads: number,
): Promise<void> {
  await core.rows(
    () => core.sql`UPDATE targets SET metrics_due_at = ${dueAt}, metrics_reads = ${reads}
                   WHERE post_id = ${postId} AND platform = ${platform} RETURNING post_id`,
  );
}

export async function reportMetrics(
  core: PostgresCore,
  postId: string,
  platform: NetworkId,
  metrics: TargetMetrics,
  effectsFor?: (target: TargetRecord) => Effects,
): Promise<TargetRecord | null> {
  return core.tx(async (tx) => {
    const [row] = await tx`
      UPDATE targets SET reach = greatest(reach, ${metrics.reach}), likes = greatest(likes, ${metrics.likes}),
                         comments = greatest(comments, ${metrics.comments}),
                         shares = greatest(shares, ${metrics.shares})
      WHERE post_id = ${postId} AND platform = ${platform}
      RETURNING *`;
    if (!row) return null;
    const target = toTarget(row);
    await core.writeEffects(tx, effectsFor?.(target));
    return target;
  });
}

export async function listPublishedTargets(core: PostgresCore, userId: string): Promise<TargetRecord[]> {
  return (
    await core.rows(
      () => core.sql`SELECT t.* FROM targets t JOIN posts p ON p.id = t.post_id
                     WHERE p.user_id = ${userId} AND p.status = 'published' AND t.status = 'published'
                     ORDER BY p.id, t.position`,
    )
  ).map(toTarget);
}

export async function countPublishedPosts(core: PostgresCore, userId: string): Promise<number> {
  const row = await core.one(
    () => core.sql`SELECT count(*) AS n FROM posts WHERE user_id = ${userId} AND status = 'published'`,
  );
  return (row?.n as number) ?? 0;
}

export async function sumPublishedMetricsByPlatform(
  core: PostgresCore,
  userId: string,
): Promise<PlatformTotals[]> {
  const rows = await core.rows(
    () => core.sql`
      SELECT t.platform, count(*) AS posts, sum(t.reach)::bigint AS reach, sum(t.likes)::bigint AS likes,
             sum(t.comments)::bigint AS comments, sum(t.shares)::bigint AS shares
      FROM targets t JOIN posts p ON p.id = t.post_id
      WHERE p.user_id = ${userId} AND p.status = 'published' AND t.status = 'published'
      GROUP BY t.platform`,
  );
  return rows.map((row) => ({
    platform: row.platform as NetworkId,
    posts: row.posts as number,
    reach: row.reach as number,
    likes: row.likes as number,
    comments: row.comments as number,
    shares: row.shares as number,
  }));
}

export async function lastAnalyticsDay(core: PostgresCore, userId: string): Promise<string | null> {
  const row = await core.one(() => core.sql`SELECT last_date FROM analytics_days WHERE user_id = ${userId}`);
  return row ? (row.last_date as string) : null;
}

export async function settleAnalyticsDay(
  core: PostgresCore,
  userId: string,
  date: string,
  events: NewEvent[],
): Promise<boolean> {
  return core.tx(async (tx) => {
    const settled = await tx`
      INSERT INTO analytics_days (user_id, last_date) VALUES (${userId}, ${date})
      ON CONFLICT (user_id) DO UPDATE SET last_date = excluded.last_date
      WHERE excluded.last_date > analytics_days.last_date
      RETURNING user_id`;
    if (settled.length === 0) return false;
    await writeEvents(core, tx, events);
    return true;
  });
}
