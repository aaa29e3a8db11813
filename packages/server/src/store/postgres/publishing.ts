import {
  CLAIM_LOOKAHEAD,
  type ClaimedTarget,
  type Effects,
  type IdempotencyAnswer,
  type NetworkId,
  type NewEvent,
  type PostRecord,
  settledPost,
  type TargetRecord,
  type WebhookRecord,
} from "@socialpub/core";
import { toPost, toTarget, toWebhook } from "../rows.ts";
import type { PostgresCore, Row } from "./core.ts";
import { writeIdempotencyAnswer } from "./idempotency.ts";
import { writeEvents } from "./outbox.ts";
import { together } from "./pipeline.ts";
import { writeTargetOutcomes } from "./target-outcomes.ts";

/** What startAttempts answers one post: every target as it now stands (or only those started), and those started. */
export interface StartedAttempts {
  targets: TargetRecord[];
  started: TargetRecord[];
}

export interface AttemptsToStart {
  postId: string;
  /** The targets to start; null: all of the post's that are due. */
  platforms: readonly NetworkId[] | null;
  now: number;
}

/**
 * Starts the attempts of the named targets (null: all of the post's) that are due, for several posts
 * in one statement, and answers each post's targets as they now stand (only those started, when some
 * are named), in network order. A post is named once (the caller sends a post named twice in another
 * call): each target row is locked while it is changed, so of two callers one starts it.
 */
export async function startAttempts(
  core: PostgresCore,
  asked: readonly AttemptsToStart[],
): Promise<StartedAttempts[]> {
  // The post's lease runs from the start of its attempts, not from its claim: a post waiting its turn
  // in a claimed batch must not be taken over as cut off while its attempts are still to come or under
  // way (the taker would mark them of unknown outcome and make them again). Renewed only once half
  // of it is spent, so a post published right after its claim costs no extra write. No wake-up:
  // instances woken for the claim's lease find this later one in nextDueAt.
  const lease = Date.now() + core.publishLeaseMs;
  const halfSpent = lease - Math.ceil(core.publishLeaseMs / 2);
  const given = JSON.stringify(asked.map((a) => ({ post_id: a.postId, platforms: a.platforms, now: a.now })));
  // The posts' ids as an array too: joined only with the records above (which the planner cannot count),
  // targets would be read whole instead of by their primary key.
  const ids = asked.map((a) => a.postId);
  const rows = await core.rows(
    () => core.sql`
      WITH asked AS (
        SELECT * FROM jsonb_to_recordset(${given}::text::jsonb) AS a(post_id text, platforms text[], now bigint)),
      started AS (
        UPDATE targets t SET in_flight = 1, attempts = t.attempts + 1, attempted_at = a.now, next_attempt_at = NULL
        FROM asked a
        WHERE t.post_id = ANY(${core.sql.array(ids)}::text[]) AND t.post_id = a.post_id
          AND (a.platforms IS NULL OR t.platform = ANY(a.platforms))
          AND t.status = 'pending' AND t.in_flight = 0 AND (t.next_attempt_at IS NULL OR t.next_attempt_at <= a.now)
        RETURNING t.*),
      renewed AS (
        UPDATE posts p SET lease_until = ${lease}
        WHERE p.id IN (SELECT post_id FROM started) AND p.status = 'publishing'
          AND (p.lease_until IS NULL OR p.lease_until < ${halfSpent})
        RETURNING p.id, p.lease_until)
      SELECT s.*, true AS started, r.lease_until AS renewed_lease,
        (SELECT lease_until FROM posts WHERE id = s.post_id AND status = 'publishing') AS post_lease
      FROM started s LEFT JOIN renewed r ON r.id = s.post_id
      UNION ALL
      SELECT t.*, false, NULL, NULL FROM targets t JOIN asked a ON a.post_id = t.post_id
      WHERE t.post_id = ANY(${core.sql.array(ids)}::text[]) AND a.platforms IS NULL
        AND NOT EXISTS (SELECT 1 FROM started s WHERE s.post_id = t.post_id AND s.platform = t.platform)
      ORDER BY post_id, position`,
  );
  const byPost = new Map<string, Row[]>();
  for (const row of rows) {
    const id = row.post_id as string;
    const list = byPost.get(id);
    if (list) list.push(row);
    else byPost.set(id, [row]);
  }
  return asked.map(({ postId }) => {
    const mine = byPost.get(postId) ?? [];
    const started = mine.filter((row) => row.started === true);
    // A lease renewed here is this instance's; one left as it was (read from the statement's snapshot,
    // before the renewal) stays held only if it is the one this instance wrote.
    const renewed = (started[0]?.renewed_lease as number | null | undefined) ?? null;
    if (renewed !== null) core.leases.hold(postId, renewed);
    else if (started.length > 0)
      core.leases.releaseUnless(postId, (started[0]?.post_lease as number | null) ?? null);
    return { targets: mine.map(toTarget), started: started.map(toTarget) };
  });
}

export async function claimDueTargets(
  core: PostgresCore,
  now: number,
  limit: number,
): Promise<ClaimedTarget[]> {
  return core.tx(async (tx) => {
    // One statement for every target claimed, and one for their posts: the due rows are locked as they
    // are read, and rows another instance is claiming right now are skipped.
    // At most one per account, its earliest due, of the CLAIM_LOOKAHEAD × limit due rows read (the
    // rows read but not chosen stay locked only until this transaction ends).
    const targets = await tx`
      WITH due AS (
        SELECT t.post_id, t.platform, t.next_attempt_at, p.user_id, p.mode FROM targets t JOIN posts p ON p.id = t.post_id
        WHERE t.next_attempt_at IS NOT NULL AND t.next_attempt_at <= ${now} AND t.status = 'pending'
          AND t.in_flight = 0 AND p.status IN ('publishing', 'published')
        ORDER BY t.next_attempt_at LIMIT ${Math.max(0, limit) * CLAIM_LOOKAHEAD}
        FOR UPDATE OF t SKIP LOCKED),
      first_of_account AS (
        SELECT DISTINCT ON (user_id, mode, platform) post_id, platform, next_attempt_at FROM due
        ORDER BY user_id, mode, platform, next_attempt_at, post_id),
      chosen AS (
        SELECT * FROM first_of_account ORDER BY next_attempt_at, post_id LIMIT ${Math.max(0, limit)})
      UPDATE targets t SET in_flight = 1, attempts = attempts + 1, attempted_at = ${now}, next_attempt_at = NULL
      FROM chosen WHERE t.post_id = chosen.post_id AND t.platform = chosen.platform
      RETURNING t.*, chosen.next_attempt_at AS fell_due_at`;
    if (targets.length === 0) return [];
    const ids = [...new Set(targets.map((row) => row.post_id as string))];
    const [posts] = await together([
      tx`SELECT * FROM posts WHERE id = ANY(${tx.array(ids)}::text[])`,
      // A retry has no post lease: the other instances' in-flight sweeps watch it instead.
      core.wake(tx, `attempt:${now}`),
    ]);
    const postOf = new Map(posts.map((row) => [row.id as string, toPost(row)] as const));
    const claimed: ClaimedTarget[] = [];
    // In the order they fell due, as they were chosen.
    const inDueOrder = [...targets].sort((a, b) => (a.fell_due_at as number) - (b.fell_due_at as number));
    for (const row of inDueOrder) {
      const post = postOf.get(row.post_id as string);
      if (post) claimed.push({ post, target: toTarget(row) });
    }
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

/** One call of Store.finishTargets: a post's outcomes, and the effects written with them. */
export interface TargetFinish {
  postId: string;
  targets: readonly TargetRecord[];
  now: number;
  effects?: Effects | ((post: PostRecord, written: ReadonlySet<NetworkId>) => Effects);
}

/**
 * Store.finishTargets for several posts (each named once) in one transaction of two round trips,
 * one statement per table however many posts: the posts locked (in the order of their ids, so two
 * instances writing overlapping groups cannot deadlock on them), their targets' outcomes, the users'
 * webhook endpoints, then the posts' settled status, one wake-up and every post's effects. Answers
 * each post as settled (null: deleted), in the order given. All or nothing: when it throws, nothing
 * of any of them is written.
 */
export async function finishManyTargets(
  core: PostgresCore,
  finishes: readonly TargetFinish[],
): Promise<(PostRecord | null)[]> {
  const ids = finishes.map((f) => f.postId);
  let kept = new Map<string, number | null>();
  const settled = await core.tx(async (tx) => {
    kept = new Map();
    const [postRows, outcomeRows, endpointRows] = await together([
      tx`SELECT * FROM posts WHERE id = ANY(${tx.array(ids)}::text[]) ORDER BY id FOR UPDATE`,
      writeTargetOutcomes(
        tx,
        finishes.map((f) => ({ postId: f.postId, targets: f.targets })),
      ),
      tx`SELECT * FROM webhooks
         WHERE user_id IN (SELECT user_id FROM posts WHERE id = ANY(${tx.array(ids)}::text[]))
           AND status = 'enabled'
         ORDER BY created_at, id`,
    ]);
    const rowOf = new Map(postRows.map((row) => [row.id as string, row] as const));
    const outcomesOf = groupBy(outcomeRows, (row) => row.post_id as string);
    // Every user of these posts, those without an endpoint too: writeEvents reads none of them again.
    const endpointsOf = new Map<string, WebhookRecord[]>(postRows.map((row) => [row.user_id as string, []]));
    for (const [userId, rows] of groupBy(endpointRows, (row) => row.user_id as string)) {
      endpointsOf.set(userId, rows.map(toWebhook));
    }
    const answers: (PostRecord | null)[] = [];
    const postUpdates: {
      id: string;
      status: string;
      scheduled_at: number | null;
      published_at: number | null;
      lease_until: number | null;
    }[] = [];
    const events: NewEvent[] = [];
    const idempotency: IdempotencyAnswer[] = [];
    let retryAt: number | null = null;
    for (const finish of finishes) {
      const row = rowOf.get(finish.postId);
      if (!row) {
        answers.push(null);
        continue;
      }
      const post = toPost(row);
      const outcomes = outcomesOf.get(finish.postId) ?? [];
      const stored = outcomes.map(toTarget);
      const settled: PostRecord = { ...post, ...settledPost(post, stored, finish.now) };
      // The lease guards attempts in flight: once none is, a post still publishing only waits for
      // retries, which the retry worker claims target by target (and the in-flight sweep recovers), so
      // it is no longer taken over as a whole, which would mark a retry under way as cut off.
      const lease =
        settled.status === "publishing" && stored.some((t) => t.in_flight)
          ? (row.lease_until as number | null)
          : null;
      kept.set(finish.postId, lease);
      postUpdates.push({
        id: finish.postId,
        status: settled.status,
        scheduled_at: settled.scheduled_at,
        published_at: settled.published_at,
        lease_until: lease,
      });
      // A retry written here is due on every instance's timer, not only this one's: this instance may
      // die before it, and the others' retry workers, armed earlier, know nothing of it. The earliest
      // is enough: a worker woken for it reads the next one from the store after its run.
      const retry = earliestRetry(finish.targets);
      if (retry !== null && (retryAt === null || retry < retryAt)) retryAt = retry;
      const written = new Set(
        outcomes.filter((row) => row.written === true).map((row) => row.platform as NetworkId),
      );
      const effects =
        typeof finish.effects === "function" ? finish.effects(settled, written) : finish.effects;
      if (effects?.events) events.push(...effects.events);
      if (effects?.idempotency) idempotency.push(effects.idempotency);
      answers.push(settled);
    }
    // The second and last round trip before the commit: the posts, the wake-up and the effects.
    await together([
      postUpdates.length > 0
        ? tx`UPDATE posts p SET status = g.status, scheduled_at = g.scheduled_at,
                                published_at = g.published_at, lease_until = g.lease_until
             FROM jsonb_to_recordset(${JSON.stringify(postUpdates)}::text::jsonb)
               AS g(id text, status text, scheduled_at bigint, published_at bigint, lease_until bigint)
             WHERE p.id = g.id`.execute()
        : undefined,
      retryAt !== null ? core.wake(tx, `retry:${retryAt}`) : undefined,
      writeEvents(core, tx, events, endpointsOf),
      ...idempotency.map((answer) => writeIdempotencyAnswer(tx, answer)),
    ]);
    return answers;
  });
  // The lease kept is the one the row had: still held here only if it is the one written here.
  for (const [postId, lease] of kept) core.leases.releaseUnless(postId, lease);
  return settled;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
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

/** The earliest next attempt among targets waiting for one (pending, not in flight), or null. */
function earliestRetry(targets: readonly TargetRecord[]): number | null {
  let at: number | null = null;
  for (const t of targets) {
    if (t.status !== "pending" || t.in_flight || t.next_attempt_at === null) continue;
    if (at === null || t.next_attempt_at < at) at = t.next_attempt_at;
  }
  return at;
}
