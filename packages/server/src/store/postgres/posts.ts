import type {
  Effects,
  ListPostsOptions,
  PostPatch,
  PostRecord,
  PostStatus,
  TargetMetrics,
  TargetRecord,
} from "@socialpub/core";
import { captionsColumn, richColumn, toPost, toTarget } from "../rows.ts";
import type { PostgresCore, Tx } from "./core.ts";
import { enabledEndpoints } from "./outbox.ts";
import { together } from "./pipeline.ts";
import { targetColumns } from "./target-outcomes.ts";

export async function writeTargets(tx: Tx, postId: string, targets: readonly TargetRecord[]): Promise<void> {
  if (targets.length === 0) return;
  await tx`INSERT INTO targets ${tx(
    targets.map((t, position) => ({
      post_id: postId,
      platform: t.platform,
      position,
      ...targetColumns(t),
    })),
  )}`;
}

export async function insertPost(
  core: PostgresCore,
  post: PostRecord,
  targets: TargetRecord[],
  effects?: Effects,
): Promise<void> {
  const wakeAt =
    post.status === "scheduled" && post.scheduled_at !== null
      ? post.scheduled_at
      : // Published now: every instance learns when its lease runs out, so one takes it over should
        // this one die (or lose the database) before it is done.
        post.status === "publishing"
        ? post.created_at + core.publishLeaseMs
        : null;
  await core.tx(async (tx) => {
    // Nothing here waits on another's answer: one round trip, with the user's webhook endpoints read
    // for the events, which are written in the second.
    const [, , , , endpoints] = await together([
      tx`
        INSERT INTO posts (id, user_id, mode, caption, platforms, status, media, scheduled_at,
                           published_at, created_at, lease_until, captions, rich)
        VALUES (${post.id}, ${post.user_id}, ${post.mode}, ${post.caption}, ${JSON.stringify(post.platforms)},
                ${post.status}, ${post.media}, ${post.scheduled_at}, ${post.published_at},
                ${post.created_at},
                ${post.status === "publishing" ? post.created_at + core.publishLeaseMs : null},
                ${captionsColumn(post.captions)}, ${richColumn(post.rich)})`.execute(),
      tx`INSERT INTO post_creations (user_id, post_id, created_at)
         VALUES (${post.user_id}, ${post.id}, ${post.created_at})`.execute(),
      wakeAt !== null ? core.wake(tx, `due:${wakeAt}`) : undefined,
      writeTargets(tx, post.id, targets),
      effects?.events && effects.events.length > 0 ? enabledEndpoints(tx, post.user_id) : undefined,
    ]);
    await core.writeEffects(tx, effects, endpoints && new Map([[post.user_id, endpoints]]));
  });
  if (post.status === "publishing") core.leases.hold(post.id, post.created_at + core.publishLeaseMs);
}

export async function getPost(core: PostgresCore, userId: string, id: string): Promise<PostRecord | null> {
  const row = await core.one(() => core.sql`SELECT * FROM posts WHERE id = ${id} AND user_id = ${userId}`);
  return row ? toPost(row) : null;
}

export async function listPosts(
  core: PostgresCore,
  userId: string,
  options: ListPostsOptions,
): Promise<PostRecord[]> {
  const statuses = options.statuses && options.statuses.length > 0 ? options.statuses : null;
  const sql = core.sql;
  return (
    await core.rows(
      () => sql`SELECT * FROM posts
        WHERE user_id = ${userId}
          ${statuses ? sql`AND status IN ${sql(statuses)}` : sql``}
          ${options.beforeId !== undefined ? sql`AND id < ${options.beforeId}` : sql``}
        ORDER BY id DESC LIMIT ${options.limit}`,
    )
  ).map(toPost);
}

export async function countPostsCreatedSince(
  core: PostgresCore,
  userId: string,
  since: number,
): Promise<number> {
  const row = await core.one(
    () => core.sql`SELECT count(*) AS n FROM post_creations
                   WHERE user_id = ${userId} AND created_at >= ${since}`,
  );
  return (row?.n as number) ?? 0;
}

export async function getTargets(core: PostgresCore, postId: string): Promise<TargetRecord[]> {
  return (
    await core.rows(() => core.sql`SELECT * FROM targets WHERE post_id = ${postId} ORDER BY position`)
  ).map(toTarget);
}

export async function sumTargetMetrics(
  core: PostgresCore,
  postIds: readonly string[],
): Promise<Map<string, TargetMetrics>> {
  if (postIds.length === 0) return new Map();
  const rows = await core.rows(
    () => core.sql`SELECT post_id, sum(reach)::bigint AS reach, sum(likes)::bigint AS likes,
                          sum(comments)::bigint AS comments, sum(shares)::bigint AS shares
                   FROM targets WHERE post_id = ANY(${core.sql.array([...postIds])}::text[])
                   GROUP BY post_id`,
  );
  return new Map(
    rows.map((row) => [
      row.post_id as string,
      {
        reach: row.reach as number,
        likes: row.likes as number,
        comments: row.comments as number,
        shares: row.shares as number,
      },
    ]),
  );
}

export async function deletePost(
  core: PostgresCore,
  userId: string,
  id: string,
  effectsFor?: (post: PostRecord) => Effects,
): Promise<PostRecord | null> {
  return core.tx(async (tx) => {
    const [row] = await tx`DELETE FROM posts WHERE id = ${id} AND user_id = ${userId} RETURNING *`;
    if (!row) return null;
    const post = toPost(row);
    await tx`DELETE FROM targets WHERE post_id = ${id}`;
    await core.writeEffects(tx, effectsFor?.(post));
    return post;
  });
}

export async function transitionPost(
  core: PostgresCore,
  id: string,
  from: PostStatus[],
  patch: PostPatch,
  targets?: TargetRecord[],
  effects?: Effects | ((post: PostRecord) => Effects),
): Promise<PostRecord | null> {
  let lease: number | null = null;
  const next = await core.tx(async (tx) => {
    // Locked as read: a delete, a claim or another transition of this post waits for this one to commit.
    const [row] = await tx`SELECT * FROM posts WHERE id = ${id} FOR UPDATE`;
    if (!row) return null;
    const post = toPost(row);
    if (!from.includes(post.status)) return null;
    const next: PostRecord = {
      ...post,
      ...(patch.status !== undefined && { status: patch.status }),
      ...(patch.scheduled_at !== undefined && { scheduled_at: patch.scheduled_at }),
      ...(patch.published_at !== undefined && { published_at: patch.published_at }),
      ...(patch.caption !== undefined && { caption: patch.caption }),
      ...(patch.platforms !== undefined && { platforms: [...patch.platforms] }),
      ...(patch.media !== undefined && { media: patch.media }),
    };
    const captions = captionsColumn(patch.captions !== undefined ? patch.captions : post.captions);
    if (captions === null) delete next.captions;
    else next.captions = JSON.parse(captions) as PostRecord["captions"];
    const rich = richColumn(patch.rich !== undefined ? patch.rich : post.rich);
    if (rich === null) delete next.rich;
    else next.rich = JSON.parse(rich) as PostRecord["rich"];
    // Publishing is leased from now (the caller's clock is not passed here; leases are wall-clock).
    lease = next.status === "publishing" ? Date.now() + core.publishLeaseMs : null;
    await tx`UPDATE posts SET status = ${next.status}, scheduled_at = ${next.scheduled_at},
                              published_at = ${next.published_at}, lease_until = ${lease},
                              caption = ${next.caption}, platforms = ${JSON.stringify(next.platforms)},
                              media = ${next.media}, captions = ${captions}, rich = ${rich}
             WHERE id = ${id}`;
    if (next.status === "scheduled" && next.scheduled_at !== null) {
      await core.wake(tx, `due:${next.scheduled_at}`);
    }
    if (lease !== null) await core.wake(tx, `due:${lease}`);
    if (targets) {
      await tx`DELETE FROM targets WHERE post_id = ${id}`;
      await writeTargets(tx, id, targets);
    }
    await core.writeEffects(tx, typeof effects === "function" ? effects(next) : effects);
    return next;
  });
  if (next !== null) holdOrRelease(core, id, lease);
  return next;
}

/** After a commit that wrote the post's lease: held here while leased, let go of once not. */
export function holdOrRelease(core: PostgresCore, postId: string, lease: number | null): void {
  if (lease === null) core.leases.release(postId);
  else core.leases.hold(postId, lease);
}

export async function claimDuePosts(core: PostgresCore, now: number, limit: number): Promise<PostRecord[]> {
  // Due rows are locked as they are read, and rows another instance is claiming right now are skipped
  // rather than waited for, so instances claiming together share the posts. A post whose claim
  // outlived its lease (its instance died while publishing) is claimed again, first; attempts that
  // instance left in flight become of unknown outcome, so they are checked with the network before
  // anything is resent.
  const lease = now + core.publishLeaseMs;
  const rows = await core.tx(async (tx) => {
    const rows = await tx`
      WITH expired AS (
        SELECT id FROM posts WHERE status = 'publishing' AND lease_until <= ${now}
        ORDER BY lease_until LIMIT ${limit}
        FOR UPDATE SKIP LOCKED),
      due AS (
        SELECT id FROM posts WHERE status = 'scheduled' AND scheduled_at <= ${now}
        ORDER BY scheduled_at, id LIMIT ${limit}
        FOR UPDATE SKIP LOCKED),
      chosen AS (
        SELECT id FROM expired UNION ALL SELECT id FROM due LIMIT ${limit})
      UPDATE posts p SET status = 'publishing', lease_until = ${lease}
      FROM posts old
      WHERE p.id IN (SELECT id FROM chosen) AND old.id = p.id
      RETURNING p.*, old.status AS previous_status`;
    const takenOver = rows
      .filter((row) => row.previous_status === "publishing")
      .map((row) => row.id as string);
    // The other instances' schedulers wake when these leases run out: were this instance to die
    // while publishing, nothing else would make them look before their next scheduled post.
    if (rows.length > 0) await core.wake(tx, `due:${lease}`);
    if (takenOver.length > 0) {
      await tx`UPDATE targets SET in_flight = 0, outcome_unknown = 1, next_attempt_at = ${now}
               WHERE post_id = ANY(${tx.array(takenOver)}::text[]) AND in_flight = 1`;
    }
    return rows;
  });
  for (const row of rows) core.leases.hold(row.id as string, lease);
  const dueAt = (p: PostRecord) => p.scheduled_at ?? p.created_at;
  return rows.map(toPost).sort((a, b) => dueAt(a) - dueAt(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export async function nextDueAt(core: PostgresCore): Promise<number | null> {
  // least() skips nulls: the earliest due post, or the earliest lease that will run out.
  const row = await core.one(
    () => core.sql`SELECT least(
      (SELECT min(scheduled_at) FROM posts WHERE status = 'scheduled'),
      (SELECT min(lease_until) FROM posts WHERE status = 'publishing')) AS due`,
  );
  return (row?.due as number | null) ?? null;
}

export async function releaseInterruptedPublishing(): Promise<number> {
  // Another instance may be publishing what looks interrupted: leases hand such posts over instead.
  return 0;
}
