import type { TargetRecord } from "@socialpub/core";
import type { Row, TransactionSql } from "postgres";

/**
 * Writes what attempts came to on a post's targets, in one statement however many networks, and
 * answers every target of the post as it now stands (those written and the others), in the post's
 * network order, each row's `written` saying whether this wrote it. A target that is not stored (its
 * post was deleted) is left out, as an UPDATE of it would change nothing; one already settled
 * (published or failed) is final and is not written over (Store.finishTargets).
 */
export function writeTargetOutcomes(
  tx: TransactionSql,
  postId: string,
  targets: readonly TargetRecord[],
): Promise<readonly Row[]> {
  if (targets.length === 0) {
    return tx`SELECT *, false AS written FROM targets WHERE post_id = ${postId} ORDER BY position`;
  }
  // One row per network, the last given winning, as writing them one after the other would leave it.
  const last = [...new Map(targets.map((t) => [t.platform, t] as const)).values()];
  const given = JSON.stringify(last.map((t) => ({ platform: t.platform, ...targetColumns(t) })));
  // The statement's own snapshot does not see its UPDATE: the targets written come from RETURNING,
  // the others from the table.
  return tx`
    WITH given AS (
      SELECT * FROM jsonb_to_recordset(${given}::text::jsonb) AS g(
        platform text, status text, text text, permalink text, error text, published_at bigint,
        reach bigint, likes bigint, comments bigint, shares bigint, attempts integer,
        attempted_at bigint, in_flight integer, outcome_unknown integer, next_attempt_at bigint,
        remote_id text, metrics_due_at bigint, metrics_reads integer, publish_step text)),
    written AS (
      UPDATE targets t SET status = g.status, text = g.text, permalink = g.permalink, error = g.error,
        published_at = g.published_at, reach = g.reach, likes = g.likes, comments = g.comments,
        shares = g.shares, attempts = g.attempts, attempted_at = g.attempted_at,
        in_flight = g.in_flight, outcome_unknown = g.outcome_unknown,
        next_attempt_at = g.next_attempt_at, remote_id = g.remote_id,
        metrics_due_at = g.metrics_due_at, metrics_reads = g.metrics_reads,
        publish_step = g.publish_step
      FROM given g
      WHERE t.post_id = ${postId} AND t.platform = g.platform AND t.status = 'pending'
      RETURNING t.*)
    SELECT *, true AS written FROM written
    UNION ALL
    SELECT *, false FROM targets WHERE post_id = ${postId} AND platform NOT IN (SELECT platform FROM written)
    ORDER BY position`;
}

/**
 * A target's columns as PostgreSQL stores them (booleans as 0 and 1), beside the key (post, network)
 * and position a caller adds: what an insert of targets and an update of their outcomes both write.
 */
export function targetColumns(t: TargetRecord) {
  return {
    status: t.status,
    text: t.text,
    permalink: t.permalink,
    error: t.error,
    published_at: t.published_at,
    reach: t.reach,
    likes: t.likes,
    comments: t.comments,
    shares: t.shares,
    attempts: t.attempts,
    attempted_at: t.attempted_at,
    in_flight: t.in_flight ? 1 : 0,
    outcome_unknown: t.outcome_unknown ? 1 : 0,
    next_attempt_at: t.next_attempt_at,
    remote_id: t.remote_id,
    metrics_due_at: t.metrics_due_at,
    metrics_reads: t.metrics_reads,
    publish_step: t.publish_step,
  };
}
