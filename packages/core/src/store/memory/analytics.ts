import type { NetworkId } from "../../contract/networks.ts";
import type {
  ClaimedTarget,
  Effects,
  NewEvent,
  PlatformTotals,
  PostRecord,
  TargetMetrics,
  TargetRecord,
} from "../types.ts";
import { copy, type MemoryTables } from "./tables.ts";

export async function claimDueMetricReads(
  db: MemoryTables,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<ClaimedTarget[]> {
  db.postsChanged();
  const due: { post: PostRecord; target: TargetRecord }[] = [];
  for (const [postId, targets] of db.targets) {
    const post = db.posts.get(postId);
    if (!post) continue;
    for (const target of targets) {
      if (target.status === "published" && target.metrics_due_at !== null && target.metrics_due_at <= now) {
        due.push({ post, target });
      }
    }
  }
  due.sort((a, b) => a.target.metrics_due_at! - b.target.metrics_due_at!);
  return due.slice(0, Math.max(0, limit)).map(({ post, target }) => {
    target.metrics_due_at = leaseUntil;
    return { post: copy(post), target: copy(target) };
  });
}

export async function nextMetricsReadAt(db: MemoryTables): Promise<number | null> {
  let next: number | null = null;
  for (const targets of db.targets.values()) {
    for (const t of targets) {
      if (t.status !== "published" || t.metrics_due_at === null) continue;
      if (next === null || t.metrics_due_at < next) next = t.metrics_due_at;
    }
  }
  return next;
}

export async function scheduleMetricsRead(
  db: MemoryTables,
  postId: string,
  platform: NetworkId,
  dueAt: number | null,
  reads: number,
): Promise<void> {
  db.postsChanged();
  const target = db.targets.get(postId)?.find((t) => t.platform === platform);
  if (!target) return;
  target.metrics_due_at = dueAt;
  target.metrics_reads = reads;
}

export async function reportMetrics(
  db: MemoryTables,
  postId: string,
  platform: NetworkId,
  metrics: TargetMetrics,
  effectsFor?: (target: TargetRecord) => Effects,
): Promise<TargetRecord | null> {
  db.postsChanged();
  const target = db.targets.get(postId)?.find((t) => t.platform === platform);
  if (!target) return null;
  target.reach = Math.max(target.reach, metrics.reach);
  target.likes = Math.max(target.likes, metrics.likes);
  target.comments = Math.max(target.comments, metrics.comments);
  target.shares = Math.max(target.shares, metrics.shares);
  db.writeEffects(effectsFor?.(copy(target)));
  return copy(target);
}

export async function listPublishedTargets(db: MemoryTables, userId: string): Promise<TargetRecord[]> {
  const out: TargetRecord[] = [];
  for (const post of db.posts.values()) {
    if (post.user_id !== userId || post.status !== "published") continue;
    for (const t of db.targets.get(post.id) ?? []) if (t.status === "published") out.push(copy(t));
  }
  return out;
}

export async function countPublishedPosts(db: MemoryTables, userId: string): Promise<number> {
  return [...db.posts.values()].filter((p) => p.user_id === userId && p.status === "published").length;
}

export async function sumPublishedMetricsByPlatform(
  db: MemoryTables,
  userId: string,
): Promise<PlatformTotals[]> {
  const sums = new Map<NetworkId, PlatformTotals>();
  for (const post of db.posts.values()) {
    if (post.user_id !== userId || post.status !== "published") continue;
    for (const t of db.targets.get(post.id) ?? []) {
      if (t.status !== "published") continue;
      const sum = sums.get(t.platform) ?? {
        platform: t.platform,
        posts: 0,
        reach: 0,
        likes: 0,
        comments: 0,
        shares: 0,
      };
      sum.posts++;
      sum.reach += t.reach;
      sum.likes += t.likes;
      sum.comments += t.comments;
      sum.shares += t.shares;
      sums.set(t.platform, sum);
    }
  }
  return [...sums.values()];
}

export async function lastAnalyticsDay(db: MemoryTables, userId: string): Promise<string | null> {
  return db.analyticsDays.get(userId) ?? null;
}

export async function settleAnalyticsDay(
  db: MemoryTables,
  userId: string,
  date: string,
  events: NewEvent[],
): Promise<boolean> {
  const last = db.analyticsDays.get(userId);
  if (last !== undefined && last >= date) return false;
  db.analyticsDays.set(userId, date);
  db.writeEffects({ events });
  return true;
}
