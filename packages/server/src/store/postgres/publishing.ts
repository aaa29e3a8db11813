import {
  type ClaimedTarget,
  type Effects,
  type KeyMode,
  type NetworkId,
  type PostRecord,
  settledPost,
  type TargetRecord,
} from "@socialpub/core";
import { toPost, toTarget, toWebhook } from "../rows.ts";
import type { PostgresCore } from "./core.ts";
import { together } from "./pipeline.ts";
import { writeTargetOutcomes } from "./target-outcomes.ts";

export async function beginTargetAttempts(
  core: PostgresCore,
  postId: string,
  platforms: readonly NetworkId[],
  now: number,
): Promise<TargetRecord[]> {
  if (platforms.length === 0) return [];
  const { started } = await startAttempts(core, postId, platforms, now);
  return started.sort((a, b) => platforms.indexOf(a.platform) - platforms.indexOf(b.platform));
}

export function beginAllAttempts(
  core: PostgresCore,
  postId: string,
  now: number,
): Promise<{ targets: TargetRecord[]; started: TargetRecord[] }> {
  return startAttempts(core, postId, null, now);
}

/**
 * Starts the attempts of the named targets (null: all of the post's) that are due, and answers every
 * target of the post as it now stands (only those started, when some are named), in network order.
 */
export async function startAttempts(
  core: PostgresCore,
  postId: string,
  platforms: readonly NetworkId[] | null,
  now: number,
): Promise<{ targets: TargetRecord[]; started: TargetRecord[] }> {
  // One statement: each target row is locked while it is changed, so of two callers one starts it.
  // The post's lease runs from the start of its attempts, not from its claim: a post waiting its turn
  // in a claimed batch must not be taken over as cut off while its attempts are still to come or under
  // way (the taker would mark them of unknown outcome and make them again). Renewed only once half
  // of it is spent, so a post published right after its claim costs no extra write. No wake-up:
  // instances woken for the claim's lease find this later one in nextDueAt.
  const lease = Date.now() + core.publishLeaseMs;
  const halfSpent = lease - Math.ceil(core.publishLeaseMs / 2);
  const sql = core.sql;
  const rows = await core.rows(
    () => sql`
      WITH started AS (
        UPDATE targets SET in_flight = 1, attempts = attempts + 1, attempted_at = ${now}, next_attempt_at = NULL
        WHERE post_id = ${postId}
          ${platforms ? sql`AND platform = ANY(${sql.array([...platforms])}::text[])` : sql``}
          AND status = 'pending' AND in_flight = 0 AND (next_attempt_at IS NULL OR next_attempt_at <= ${now})
        RETURNING *),
      renewed AS (
        UPDATE posts SET lease_until = ${lease}
        WHERE id = ${postId} AND status = 'publishing' AND EXISTS (SELECT 1 FROM started)
          AND (lease_until IS NULL OR lease_until < ${halfSpent})
        RETURNING lease_until)
      SELECT started.*, true AS started, (SELECT lease_until FROM renewed) AS renewed_lease,
        (SELECT lease_until FROM posts WHERE id = ${postId} AND status = 'publishing') AS post_lease
      FROM started
      ${
        platforms
          ? sql``
          : sql`UNION ALL
                SELECT t.*, false, NULL, NULL FROM targets t
                WHERE t.post_id = ${postId} AND t.platform NOT IN (SELECT platform FROM started)`
      }
      ORDER BY position`,
  );
  const started = rows.filter((row) => row.started === true);
  // A lease renewed here is this instance's; one left as it was (read from the statement's snapshot,
  // before the renewal) stays held only if it is the one this instance wrote.
  const renewed = (started[0]?.renewed_lease as number | null | undefined) ?? null;
  if (renewed !== null) core.leases.hold(postId, renewed);
  else if (started.length > 0)
    core.leases.releaseUnless(postId, (started[0]?.post_lease as number | null) ?? null);
  return { targets: rows.map(toTarget), started: started.map(toTarget) };
}

export async function claimDueTargets(
  core: PostgresCore,
  now: number,
  limit: number,
): Promise<ClaimedTarget[]> {
  return core.tx(async (tx) => {
    const due = await tx`
      SELECT t.post_id, t.platform FROM targets t JOIN posts p ON p.id = t.post_id
      WHERE t.next_attempt_at IS NOT NULL AND t.next_attempt_at <= ${now} AND t.status = 'pending'
        AND t.in_flight = 0 AND p.status IN ('publishing', 'published')
      ORDER BY t.next_attempt_at LIMIT ${limit}
      FOR UPDATE OF t SKIP LOCKED`;
    const claimed: ClaimedTarget[] = [];
    for (const row of due) {
      const [target] = await tx`
        UPDATE targets SET in_flight = 1, attempts = attempts + 1, attempted_at = ${now}, next_attempt_at = NULL
        WHERE post_id = ${row.post_id as string} AND platform = ${row.platform as string}
        RETURNING *`;
      const [post] = await tx`SELECT * FROM posts WHERE id = ${row.post_id as string}`;
      if (target && post) claimed.push({ post: toPost(post), target: toTarget(target) });
    }
    // A retry has no post lease: the other instances' in-flight sweeps watch it instead.
    if (claimed.length > 0) await core.wake(tx, `attempt:${now}`);
    return claimed;
  });
}

export async function nextTargetAttemptAt(core: PostgresCore): Promise<number | null> {
  const row = await core.one(
    () => core.sql`SELECT min(next_attempt_at) AS at FROM targets
                   WHERE next_attempt_at IS NOT NULL AND status = 'pending' AND in_flight = 0`,
  );
  return (row?.at as number | null) ?? null;
}

export async function finishTargets(
  core: PostgresCore,
  postId: string,
  targets: readonly TargetRecord[],
  now: number,
  effects?: Effects | ((post: PostRecord, written: ReadonlySet<NetworkId>) => Effects),
): Promise<PostRecord | null> {
  let kept: number | null = null;
  const settled = await core.tx(async (tx) => {
    // One round trip: the post locked first (a delete or a claim of it waits for this transaction),
    // then the outcomes written, and the user's webhook endpoints read for the events to come.
    const [[row], outcomes, endpoints] = await together([
      tx`SELECT * FROM posts WHERE id = ${postId} FOR UPDATE`,
      writeTargetOutcomes(tx, postId, targets),
      tx`SELECT * FROM webhooks
         WHERE user_id = (SELECT user_id FROM posts WHERE id = ${postId}) AND status = 'enabled'
         ORDER BY created_at, id`,
    ]);
    if (!row) return null;
    const post = toPost(row);
    const stored = outcomes.map(toTarget);
    const settled: PostRecord = { ...post, ...settledPost(post, stored, now) };
    // The lease guards attempts in flight: once none is, a post still publishing only waits for
    // retries, which the retry worker claims target by target (and the in-flight sweep recovers), so
    // it is no longer taken over as a whole, which would mark a retry under way as cut off.
    const lease = settled.status === "publishing" && stored.some((t) => t.in_flight) ? row.lease_until : null;
    // A retry written here is due on every instance's timer, not only this one's: this instance may
    // die before it, and the others' retry workers, armed earlier, know nothing of it.
    const retryAt = earliestRetry(targets);
    const written = new Set(
      outcomes.filter((row) => row.written === true).map((row) => row.platform as NetworkId),
    );
    const toWrite = typeof effects === "function" ? effects(settled, written) : effects;
    // The second and last round trip before the commit: the post, its wake-ups and its effects.
    await together([
      tx`UPDATE posts SET status = ${settled.status}, scheduled_at = ${settled.scheduled_at},
                          published_at = ${settled.published_at}, lease_until = ${lease as number | null}
         WHERE id = ${postId}`.execute(),
      retryAt !== null ? core.wake(tx, `retry:${retryAt}`) : undefined,
      core.writeEffects(tx, toWrite, new Map([[post.user_id, endpoints.map(toWebhook)]])),
    ]);
    kept = lease;
    return settled;
  });
  // The lease kept is the one the row had: still held here only if it is the one written here.
  if (settled !== null) core.leases.releaseUnless(postId, kept);
  return settled;
}

export async function saveTargetStep(
  core: PostgresCore,
  postId: string,
  platform: NetworkId,
  attempts: number,
  step: string | null,
): Promise<boolean> {
  const rows = await core.rows(
    () => core.sql`UPDATE targets SET publish_step = ${step}
                   WHERE post_id = ${postId} AND platform = ${platform} AND in_flight = 1
                     AND attempts = ${attempts}
                   RETURNING post_id`,
  );
  return rows.length > 0;
}

export async function oldestAttemptInFlight(core: PostgresCore): Promise<number | null> {
  const row = await core.one(() => core.sql`SELECT min(attempted_at) AS at FROM targets WHERE in_flight = 1`);
  return (row?.at as number | null) ?? null;
}

export async function releaseInterruptedTargets(
  core: PostgresCore,
  startedBefore: number,
  now: number,
): Promise<number> {
  const rows = await core.rows(
    () => core.sql`UPDATE targets SET in_flight = 0, outcome_unknown = 1, next_attempt_at = ${now}
                   WHERE in_flight = 1 AND attempted_at < ${startedBefore} RETURNING post_id`,
  );
  return rows.length;
}

export async function recentAttemptTimes(
  core: PostgresCore,
  userId: string,
  mode: KeyMode,
  platform: NetworkId,
  since: number,
): Promise<number[]> {
  const rows = await core.rows(
    () => core.sql`SELECT t.attempted_at AS at FROM targets t JOIN posts p ON p.id = t.post_id
                   WHERE t.platform = ${platform} AND t.attempted_at >= ${since}
                     AND p.user_id = ${userId} AND p.mode = ${mode}
                   ORDER BY t.attempted_at`,
  );
  return rows.map((row) => row.at as number);
}

/** The earliest next attempt among targets waiting for one (pending, not in flight), or null. */
function earliestRetry(targets: readonly TargetRecord[]): number | null {
  let at: number | null = null;
  for (const t of targets) {
    if (t.status !== "pending" || t.in_flight || t.next_attempt_at === null) continue;
    if (at === null || t.next_attempt_at < at) at = t.next_attempt_at;
  }
  return at;
}
