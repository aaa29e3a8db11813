import type { SQLInputValue } from "node:sqlite";
import type {
  Effects,
  ListPostsOptions,
  PostPatch,
  PostRecord,
  PostStatus,
  TargetMetrics,
  TargetRecord,
} from "@socialpub/core";
import {
  captionsColumn,
  POST_COLUMNS,
  postFromColumns,
  richColumn,
  TARGET_COLUMNS,
  targetFromColumns,
  targetValues,
} from "../rows.ts";
import type { SqliteCore } from "./core.ts";

export function writeTargets(core: SqliteCore, postId: string, targets: readonly TargetRecord[]): void {
  targets.forEach((t, position) => {
    core.run(
      `INSERT INTO targets (post_id, platform, position, status, text, permalink, error, published_at,
                            reach, likes, comments, shares, attempts, attempted_at, in_flight,
                            outcome_unknown, next_attempt_at, remote_id, metrics_due_at, metrics_reads,
                            publish_step, parts, first_comment, notes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      postId,
      t.platform,
      position,
      ...targetValues(t),
    );
  });
}

export async function insertPost(
  core: SqliteCore,
  post: PostRecord,
  targets: TargetRecord[],
  effects?: Effects,
): Promise<void> {
  await core.write(() => {
    core.run(
      `INSERT INTO posts (id, user_id, mode, caption, platforms, status, media, scheduled_at, published_at, created_at, captions, rich)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      post.id,
      post.user_id,
      post.mode,
      post.caption,
      JSON.stringify(post.platforms),
      post.status,
      post.media,
      post.scheduled_at,
      post.published_at,
      post.created_at,
      captionsColumn(post.captions),
      richColumn(post.rich),
    );
    core.run(
      "INSERT INTO post_creations (user_id, post_id, created_at) VALUES (?, ?, ?)",
      post.user_id,
      post.id,
      post.created_at,
    );
    writeTargets(core, post.id, targets);
    core.writeEffects(effects);
  });
}

export async function getPost(core: SqliteCore, userId: string, id: string): Promise<PostRecord | null> {
  return readUsersPost(core, userId, id);
}

/** The user's post by id (another user's answers like an unknown id), read as an array. */
export function readUsersPost(core: SqliteCore, userId: string, id: string): PostRecord | null {
  const row = core.getArray(`SELECT ${POST_COLUMNS} FROM posts WHERE id = ? AND user_id = ?`, id, userId);
  return row ? postFromColumns(row) : null;
}

export async function listPosts(
  core: SqliteCore,
  userId: string,
  options: ListPostsOptions,
): Promise<PostRecord[]> {
  const where = ["user_id = ?"];
  const params: SQLInputValue[] = [userId];
  if (options.statuses && options.statuses.length > 0) {
    where.push(`status IN (${options.statuses.map(() => "?").join(", ")})`);
    params.push(...options.statuses);
  }
  if (options.beforeId !== undefined) {
    where.push("id < ?");
    params.push(options.beforeId);
  }
  params.push(options.limit);
  // A page is up to 101 rows: read as arrays, which node:sqlite builds several times faster than
  // objects with named properties.
  return core
    .allArrays(
      `SELECT ${POST_COLUMNS} FROM posts WHERE ${where.join(" AND ")} ORDER BY id DESC LIMIT ?`,
      ...params,
    )
    .map(postFromColumns);
}

export async function countPostsCreatedSince(
  core: SqliteCore,
  userId: string,
  since: number,
): Promise<number> {
  const row = core.get(
    "SELECT count(*) AS n FROM post_creations WHERE user_id = ? AND created_at >= ?",
    userId,
    since,
  );
  return (row?.n as number) ?? 0;
}

export async function getTargets(core: SqliteCore, postId: string): Promise<TargetRecord[]> {
  return readTargets(core, postId);
}

/** A post's targets in its network order, read as arrays (publishing reads them on every attempt). */
export function readTargets(core: SqliteCore, postId: string): TargetRecord[] {
  return core
    .allArrays(`SELECT ${TARGET_COLUMNS} FROM targets WHERE post_id = ? ORDER BY position`, postId)
    .map(targetFromColumns);
}

/** A post by id alone, whoever its user (the service's own reads and writes), read as an array. */
export function readPost(core: SqliteCore, postId: string): PostRecord | null {
  const row = core.getArray(`SELECT ${POST_COLUMNS} FROM posts WHERE id = ?`, postId);
  return row ? postFromColumns(row) : null;
}

export async function sumTargetMetrics(
  core: SqliteCore,
  postIds: readonly string[],
): Promise<Map<string, TargetMetrics>> {
  // One statement for any number of ids: they travel as a JSON array.
  const rows = core.allArrays(
    `SELECT post_id, sum(reach), sum(likes), sum(comments), sum(shares)
     FROM targets WHERE post_id IN (SELECT value FROM json_each(?)) GROUP BY post_id`,
    JSON.stringify(postIds),
  );
  return new Map(
    rows.map((row) => [
      row[0] as string,
      {
        reach: row[1] as number,
        likes: row[2] as number,
        comments: row[3] as number,
        shares: row[4] as number,
      },
    ]),
  );
}

export async function deletePost(
  core: SqliteCore,
  userId: string,
  id: string,
  effectsFor?: (post: PostRecord) => Effects,
): Promise<PostRecord | null> {
  return core.write(() => {
    const post = readUsersPost(core, userId, id);
    if (!post) return null;
    core.run("DELETE FROM targets WHERE post_id = ?", id);
    core.run("DELETE FROM posts WHERE id = ?", id);
    core.writeEffects(effectsFor?.(post));
    return post;
  });
}

export async function transitionPost(
  core: SqliteCore,
  id: string,
  from: PostStatus[],
  patch: PostPatch,
  targets?: TargetRecord[],
  effects?: Effects | ((post: PostRecord) => Effects),
): Promise<PostRecord | null> {
  return core.write(() => {
    const post = readPost(core, id);
    if (!post || !from.includes(post.status)) return null;
    const next: PostRecord = {
      ...post,
      ...(patch.status !== undefined && { status: patch.status }),
      ...(patch.scheduled_at !== undefined && { scheduled_at: patch.scheduled_at }),
      ...(patch.published_at !== undefined && { published_at: patch.published_at }),
      ...(patch.caption !== undefined && { caption: patch.caption }),
      ...(patch.platforms !== undefined && { platforms: [...patch.platforms] }),
      ...(patch.media !== undefined && { media: patch.media }),
    };
    const captions =
      patch.captions !== undefined ? captionsColumn(patch.captions) : captionsColumn(post.captions);
    if (captions === null) delete next.captions;
    else next.captions = JSON.parse(captions) as PostRecord["captions"];
    const rich = richColumn(patch.rich !== undefined ? patch.rich : post.rich);
    if (rich === null) delete next.rich;
    else next.rich = JSON.parse(rich) as PostRecord["rich"];
    core.run(
      `UPDATE posts SET status = ?, scheduled_at = ?, published_at = ?, caption = ?, platforms = ?, media = ?,
         captions = ?, rich = ?
       WHERE id = ?`,
      next.status,
      next.scheduled_at,
      next.published_at,
      next.caption,
      JSON.stringify(next.platforms),
      next.media,
      captions,
      rich,
      id,
    );
    if (targets) {
      core.run("DELETE FROM targets WHERE post_id = ?", id);
      writeTargets(core, id, targets);
    }
    core.writeEffects(typeof effects === "function" ? effects(next) : effects);
    return next;
  });
}

export async function claimDuePosts(core: SqliteCore, now: number, limit: number): Promise<PostRecord[]> {
  return core.write(() =>
    // One statement for the batch; RETURNING gives no order, so the batch is sorted as it was chosen.
    core
      .allArrays(
        `UPDATE posts SET status = 'publishing' WHERE id IN (
         SELECT id FROM posts WHERE status = 'scheduled' AND scheduled_at <= ?
         ORDER BY scheduled_at, id LIMIT ?)
       RETURNING ${POST_COLUMNS}`,
        now,
        limit,
      )
      .map(postFromColumns)
      .sort(byDueTimeThenId),
  );
}

export async function nextDueAt(core: SqliteCore): Promise<number | null> {
  const row = core.get("SELECT min(scheduled_at) AS due FROM posts WHERE status = 'scheduled'");
  return (row?.due as number | null) ?? null;
}

export async function releaseInterruptedPublishing(core: SqliteCore): Promise<number> {
  // A post published "now" that was cut off has no scheduled_at; it becomes due at its creation time,
  // so the scheduler publishes it as soon as it starts instead of leaving it stuck.
  return core.write(() =>
    core.run(
      "UPDATE posts SET status = 'scheduled', scheduled_at = coalesce(scheduled_at, created_at) WHERE status = 'publishing'",
    ),
  );
}

/** Due posts in the order the scheduler claims them: earliest due first, then by id. */
function byDueTimeThenId(a: PostRecord, b: PostRecord): number {
  return a.scheduled_at! - b.scheduled_at! || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
