import type { PostStatus } from "../../contract/resources.ts";
import type {
  Effects,
  ListPostsOptions,
  PostPatch,
  PostRecord,
  TargetMetrics,
  TargetRecord,
} from "../types.ts";
import { refuseTakenClaim } from "./idempotency.ts";
import { copy, type MemoryTables, setCaptions, setRich } from "./tables.ts";

export async function insertPost(
  db: MemoryTables,
  post: PostRecord,
  targets: TargetRecord[],
  effects?: Effects,
): Promise<void> {
  if (db.posts.has(post.id)) throw new Error(`Post ${post.id} already exists.`);
  // Before any change: a taken key leaves the store as it was, as a rolled-back transaction would.
  refuseTakenClaim(db, effects?.idempotency);
  db.postsChanged();
  const stored = copy(post);
  setCaptions(stored, post.captions);
  setRich(stored, post.rich);
  db.posts.set(post.id, stored);
  db.targets.set(post.id, copy(targets));
  const created = db.postCreations.get(post.user_id) ?? [];
  created.push(post.created_at);
  db.postCreations.set(post.user_id, created);
  db.writeEffects(effects);
}

export async function getPost(db: MemoryTables, userId: string, id: string): Promise<PostRecord | null> {
  const post = db.posts.get(id);
  return post && post.user_id === userId ? copy(post) : null;
}

export async function listPosts(
  db: MemoryTables,
  userId: string,
  options: ListPostsOptions,
): Promise<PostRecord[]> {
  const statuses = options.statuses && options.statuses.length > 0 ? new Set(options.statuses) : null;
  const before = options.beforeId;
  return [...db.posts.values()]
    .filter((p) => p.user_id === userId)
    .filter((p) => !statuses || statuses.has(p.status))
    .filter((p) => before === undefined || p.id < before)
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, Math.max(0, options.limit))
    .map(copy);
}

export async function countPostsCreatedSince(
  db: MemoryTables,
  userId: string,
  since: number,
): Promise<number> {
  return (db.postCreations.get(userId) ?? []).filter((at) => at >= since).length;
}

export async function getTargets(db: MemoryTables, postId: string): Promise<TargetRecord[]> {
  return copy(db.targets.get(postId) ?? []);
}

export async function sumTargetMetrics(
  db: MemoryTables,
  postIds: readonly string[],
): Promise<Map<string, TargetMetrics>> {
  const sums = new Map<string, TargetMetrics>();
  for (const postId of postIds) {
    const targets = db.targets.get(postId);
    if (!targets || targets.length === 0) continue;
    const sum = { reach: 0, likes: 0, comments: 0, shares: 0 };
    for (const t of targets) {
      sum.reach += t.reach;
      sum.likes += t.likes;
      sum.comments += t.comments;
      sum.shares += t.shares;
    }
    sums.set(postId, sum);
  }
  return sums;
}

export async function deletePost(
  db: MemoryTables,
  userId: string,
  id: string,
  effectsFor?: (post: PostRecord) => Effects,
): Promise<PostRecord | null> {
  db.postsChanged();
  const post = db.posts.get(id);
  if (!post || post.user_id !== userId) return null;
  const effects = effectsFor?.(copy(post));
  db.posts.delete(id);
  db.targets.delete(id);
  db.writeEffects(effects);
  return copy(post);
}

export async function transitionPost(
  db: MemoryTables,
  id: string,
  from: PostStatus[],
  patch: PostPatch,
  targets?: TargetRecord[],
  effects?: Effects | ((post: PostRecord) => Effects),
): Promise<PostRecord | null> {
  db.postsChanged();
  const post = db.posts.get(id);
  if (!post || !from.includes(post.status)) return null;
  if (patch.status !== undefined) post.status = patch.status;
  if (patch.scheduled_at !== undefined) post.scheduled_at = patch.scheduled_at;
  if (patch.published_at !== undefined) post.published_at = patch.published_at;
  if (patch.caption !== undefined) post.caption = patch.caption;
  if (patch.platforms !== undefined) post.platforms = copy(patch.platforms);
  if (patch.media !== undefined) post.media = patch.media;
  if (patch.captions !== undefined) setCaptions(post, patch.captions);
  if (patch.rich !== undefined) setRich(post, patch.rich);
  if (targets) db.targets.set(id, copy(targets));
  db.writeEffects(typeof effects === "function" ? effects(copy(post)) : effects);
  return copy(post);
}

export async function claimDuePosts(db: MemoryTables, now: number, limit: number): Promise<PostRecord[]> {
  db.postsChanged();
  const due = [...db.posts.values()]
    .filter((p) => p.status === "scheduled" && p.scheduled_at !== null && p.scheduled_at <= now)
    .sort((a, b) => a.scheduled_at! - b.scheduled_at! || (a.id < b.id ? -1 : 1))
    .slice(0, Math.max(0, limit));
  for (const post of due) post.status = "publishing";
  return due.map(copy);
}

export async function nextDueAt(db: MemoryTables): Promise<number | null> {
  let next: number | null = null;
  for (const p of db.posts.values()) {
    if (p.status === "scheduled" && p.scheduled_at !== null && (next === null || p.scheduled_at < next)) {
      next = p.scheduled_at;
    }
  }
  return next;
}

export async function releaseInterruptedPublishing(db: MemoryTables): Promise<number> {
  db.postsChanged();
  let released = 0;
  for (const post of db.posts.values()) {
    if (post.status !== "publishing") continue;
    post.status = "scheduled";
    post.scheduled_at ??= post.created_at;
    released++;
  }
  return released;
}
