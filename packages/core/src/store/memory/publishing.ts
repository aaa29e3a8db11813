import type { NetworkId } from "../../contract/networks.ts";
import { accountKey, CLAIM_LOOKAHEAD, onePerAccount } from "../claim-per-account.ts";
import { settledPost } from "../settle.ts";
import type { ClaimedTarget, Effects, KeyMode, PostRecord, RecentAttempt, TargetRecord } from "../types.ts";
import { copy, isDue, type MemoryTables, startAttempt } from "./tables.ts";

export async function beginTargetAttempts(
  db: MemoryTables,
  postId: string,
  platforms: readonly NetworkId[],
  now: number,
): Promise<TargetRecord[]> {
  db.postsChanged();
  const started: TargetRecord[] = [];
  for (const target of db.targets.get(postId) ?? []) {
    if (!platforms.includes(target.platform) || !isDue(target, now)) continue;
    startAttempt(target, now);
    started.push(copy(target));
  }
  return started;
}

export async function claimDueTargets(
  db: MemoryTables,
  now: number,
  limit: number,
): Promise<ClaimedTarget[]> {
  db.postsChanged();
  const due: { post: PostRecord; target: TargetRecord }[] = [];
  for (const [postId, targets] of db.targets) {
    const post = db.posts.get(postId);
    if (!post || (post.status !== "publishing" && post.status !== "published")) continue;
    for (const target of targets) {
      if (target.next_attempt_at !== null && isDue(target, now)) due.push({ post, target });
    }
  }
  due.sort((a, b) => a.target.next_attempt_at! - b.target.next_attempt_at!);
  const chosen = onePerAccount(
    due.slice(0, Math.max(0, limit) * CLAIM_LOOKAHEAD),
    Math.max(0, limit),
    ({ post, target }) => accountKey(post.user_id, post.mode, target.platform),
  );
  return chosen.map(({ post, target }) => {
    startAttempt(target, now);
    return { post: copy(post), target: copy(target) };
  });
}

export async function nextTargetAttemptAt(db: MemoryTables): Promise<number | null> {
  let next: number | null = null;
  for (const targets of db.targets.values()) {
    for (const t of targets) {
      if (t.status !== "pending" || t.in_flight || t.next_attempt_at === null) continue;
      if (next === null || t.next_attempt_at < next) next = t.next_attempt_at;
    }
  }
  return next;
}

export async function finishTargets(
  db: MemoryTables,
  postId: string,
  targets: readonly TargetRecord[],
  now: number,
  effects?: Effects | ((post: PostRecord, written: ReadonlySet<NetworkId>) => Effects),
): Promise<PostRecord | null> {
  db.postsChanged();
  const post = db.posts.get(postId);
  const stored = db.targets.get(postId);
  if (!post || !stored) return null;
  // Settled before this write: final (see Store.finishTargets).
  const final = new Set(stored.filter((t) => t.status !== "pending").map((t) => t.platform));
  const written = new Set<NetworkId>();
  for (const target of targets) {
    const at = stored.findIndex((t) => t.platform === target.platform);
    if (at < 0 || final.has(target.platform)) continue;
    stored[at] = copy(target);
    written.add(target.platform);
  }
  Object.assign(post, settledPost(post, stored, now));
  db.writeEffects(typeof effects === "function" ? effects(copy(post), written) : effects);
  return copy(post);
}

export async function saveTargetStep(
  db: MemoryTables,
  postId: string,
  platform: NetworkId,
  attempts: number,
  step: string | null,
): Promise<boolean> {
  const target = db.targets.get(postId)?.find((t) => t.platform === platform);
  if (!target?.in_flight || target.attempts !== attempts) return false;
  target.publish_step = step;
  return true;
}

export async function oldestAttemptInFlight(db: MemoryTables): Promise<number | null> {
  let oldest: number | null = null;
  for (const targets of db.targets.values()) {
    for (const t of targets) {
      if (t.in_flight && t.attempted_at !== null && (oldest === null || t.attempted_at < oldest))
        oldest = t.attempted_at;
    }
  }
  return oldest;
}

export async function releaseInterruptedTargets(
  db: MemoryTables,
  startedBefore: number,
  now: number,
): Promise<number> {
  db.postsChanged();
  let released = 0;
  for (const targets of db.targets.values()) {
    for (const t of targets) {
      if (!t.in_flight || (t.attempted_at ?? 0) >= startedBefore) continue;
      t.in_flight = false;
      t.outcome_unknown = true;
      t.next_attempt_at = now;
      released++;
    }
  }
  return released;
}

export async function recentAttempts(
  db: MemoryTables,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  since: number,
): Promise<RecentAttempt[]> {
  const attempts: RecentAttempt[] = [];
  for (const post of db.posts.values()) {
    if (post.user_id !== userId || post.mode !== mode) continue;
    const t = db.targets.get(post.id)?.find((x) => x.platform === platform);
    if (t?.attempted_at != null && t.attempted_at >= since) {
      attempts.push({ at: t.attempted_at, in_flight: t.in_flight });
    }
  }
  return attempts.sort((a, b) => a.at - b.at);
}
