import {
  accountKey,
  CLAIM_LOOKAHEAD,
  type ClaimedTarget,
  type Effects,
  type KeyMode,
  type NetworkId,
  onePerAccount,
  type PostRecord,
  type RecentAttempt,
  settledPost,
  type TargetRecord,
} from "@socialpub/core";
import { TARGET_COLUMNS, targetFromColumns, targetValues } from "../rows.ts";
import type { SqliteCore } from "./core.ts";
import { readPost, readTargets } from "./posts.ts";

/** What starting an attempt sets on a target (its parameter: the time it starts). */
const START_ATTEMPT = "in_flight = 1, attempts = attempts + 1, attempted_at = ?, next_attempt_at = NULL";
/** A target an attempt may start on (its parameter: now): pending, not in flight, and due. */
const ATTEMPT_IS_DUE =
  "status = 'pending' AND in_flight = 0 AND (next_attempt_at IS NULL OR next_attempt_at <= ?)";

/**
 * Starts an attempt on a target that is due, answering it as updated; null when it was not due.
 * Call inside a transaction.
 */
export function startAttempt(
  core: SqliteCore,
  postId: string,
  platform: NetworkId,
  now: number,
): TargetRecord | null {
  const row = core.getArray(
    `UPDATE targets SET ${START_ATTEMPT} WHERE post_id = ? AND platform = ? AND ${ATTEMPT_IS_DUE}
     RETURNING ${TARGET_COLUMNS}`,
    now,
    postId,
    platform,
    now,
  );
  return row ? targetFromColumns(row) : null;
}

export async function beginTargetAttempts(
  core: SqliteCore,
  postId: string,
  platforms: readonly NetworkId[],
  now: number,
): Promise<TargetRecord[]> {
  return core.write(() => {
    const started: TargetRecord[] = [];
    for (const platform of platforms) {
      const target = startAttempt(core, postId, platform, now);
      if (target) started.push(target);
    }
    return started;
  });
}

export async function beginAllAttempts(
  core: SqliteCore,
  postId: string,
  now: number,
): Promise<{ targets: TargetRecord[]; started: TargetRecord[] }> {
  return core.write(() => {
    // One statement starts every due target; the post's targets are then read in its network order.
    const begun = new Set(
      core
        .allArrays(
          `UPDATE targets SET ${START_ATTEMPT} WHERE post_id = ? AND ${ATTEMPT_IS_DUE} RETURNING platform`,
          now,
          postId,
          now,
        )
        .map((row) => row[0] as NetworkId),
    );
    const targets = readTargets(core, postId);
    return { targets, started: targets.filter((t) => begun.has(t.platform)) };
  });
}

export async function claimDueTargets(
  core: SqliteCore,
  now: number,
  limit: number,
): Promise<ClaimedTarget[]> {
  return core.write(() => {
    const due = onePerAccount(
      core.all(
        `SELECT t.post_id, t.platform, p.user_id, p.mode FROM targets t JOIN posts p ON p.id = t.post_id
         WHERE t.next_attempt_at IS NOT NULL AND t.next_attempt_at <= ? AND t.status = 'pending'
           AND t.in_flight = 0 AND p.status IN ('publishing', 'published')
         ORDER BY t.next_attempt_at LIMIT ?`,
        now,
        Math.max(0, limit) * CLAIM_LOOKAHEAD,
      ),
      Math.max(0, limit),
      (row) => accountKey(String(row.user_id), String(row.mode), String(row.platform)),
    );
    const claimed: ClaimedTarget[] = [];
    for (const row of due) {
      const postId = row.post_id as string;
      const platform = row.platform as NetworkId;
      const target = startAttempt(core, postId, platform, now);
      if (!target) continue;
      claimed.push({ post: readPost(core, postId)!, target });
    }
    return claimed;
  });
}

export async function nextTargetAttemptAt(core: SqliteCore): Promise<number | null> {
  const row = core.get(
    `SELECT min(next_attempt_at) AS at FROM targets
     WHERE next_attempt_at IS NOT NULL AND status = 'pending' AND in_flight = 0`,
  );
  return (row?.at as number | null) ?? null;
}

export async function finishTargets(
  core: SqliteCore,
  postId: string,
  targets: readonly TargetRecord[],
  now: number,
  effects?: Effects | ((post: PostRecord, written: ReadonlySet<NetworkId>) => Effects),
): Promise<PostRecord | null> {
  return core.write(() => {
    const post = readPost(core, postId);
    if (!post) return null;
    // One write per network, the last given winning; never over a target already settled (final).
    const written = new Set<NetworkId>();
    for (const t of new Map(targets.map((t) => [t.platform, t] as const)).values()) {
      const changes = core.run(
        `UPDATE targets SET status = ?, text = ?, permalink = ?, error = ?, published_at = ?, reach = ?,
           likes = ?, comments = ?, shares = ?, attempts = ?, attempted_at = ?, in_flight = ?,
           outcome_unknown = ?, next_attempt_at = ?, remote_id = ?, metrics_due_at = ?, metrics_reads = ?,
           publish_step = ?, parts = ?, first_comment = ?, notes = ?
         WHERE post_id = ? AND platform = ? AND status = 'pending'`,
        ...targetValues(t),
        postId,
        t.platform,
      );
      if (changes > 0) written.add(t.platform);
    }
    const stored = readTargets(core, postId);
    const settled = { ...post, ...settledPost(post, stored, now) };
    if (
      settled.status !== post.status ||
      settled.scheduled_at !== post.scheduled_at ||
      settled.published_at !== post.published_at
    ) {
      core.run(
        "UPDATE posts SET status = ?, scheduled_at = ?, published_at = ? WHERE id = ?",
        settled.status,
        settled.scheduled_at,
        settled.published_at,
        postId,
      );
    }
    core.writeEffects(typeof effects === "function" ? effects(settled, written) : effects);
    return settled;
  });
}

export async function saveTargetStep(
  core: SqliteCore,
  postId: string,
  platform: NetworkId,
  attempts: number,
  step: string | null,
): Promise<boolean> {
  return core.write(
    () =>
      core.run(
        `UPDATE targets SET publish_step = ?
         WHERE post_id = ? AND platform = ? AND in_flight = 1 AND attempts = ?`,
        step,
        postId,
        platform,
        attempts,
      ) > 0,
  );
}

export async function oldestAttemptInFlight(core: SqliteCore): Promise<number | null> {
  const row = core.get("SELECT min(attempted_at) AS at FROM targets WHERE in_flight = 1");
  return (row?.at as number | null | undefined) ?? null;
}

export async function releaseInterruptedTargets(
  core: SqliteCore,
  startedBefore: number,
  now: number,
): Promise<number> {
  return core.write(() =>
    core.run(
      `UPDATE targets SET in_flight = 0, outcome_unknown = 1, next_attempt_at = ?
       WHERE in_flight = 1 AND attempted_at < ?`,
      now,
      startedBefore,
    ),
  );
}

/**
 * An account's recent attempts: the user's posts, then each one's target on the network (its primary
 * key). Not the attempts of every account on the network in the window, which at the top of the hour are
 * thousands, read again for each pacing check: the unary + keeps SQLite off that index (platform,
 * attempted_at). Parameters: platform, user, mode, since.
 */
export const RECENT_ATTEMPTS_SQL = `SELECT t.attempted_at AS at, t.in_flight FROM posts p
  JOIN targets t ON t.post_id = p.id AND t.platform = ?
  WHERE p.user_id = ? AND p.mode = ? AND +t.attempted_at >= ?
  ORDER BY t.attempted_at`;

export async function recentAttempts(
  core: SqliteCore,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  since: number,
): Promise<RecentAttempt[]> {
  return core
    .all(RECENT_ATTEMPTS_SQL, platform, userId, mode, since)
    .map((row) => ({ at: row.at as number, in_flight: row.in_flight === 1 }));
}
