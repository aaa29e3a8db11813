import type { TargetRecord } from "@socialpub/core";
import type { Row, TransactionSql } from "postgres";
import { targetJsonColumn } from "../rows.ts";

type ColumnType = "text" | "bigint" | "integer";

/**
 * A target's columns as PostgreSQL stores them, beside the key (post, network) and position: each
 * with its type and its value from a TargetRecord (booleans as 0 and 1). The one list an insert of
 * targets (targetColumns) and an update of their outcomes (writeTargetOutcomes) both write.
 */
const TARGET_COLUMNS = {
  status: { type: "text", of: (t) => t.status },
  text: { type: "text", of: (t) => t.text },
  permalink: { type: "text", of: (t) => t.permalink },
  error: { type: "text", of: (t) => t.error },
  published_at: { type: "bigint", of: (t) => t.published_at },
  reach: { type: "bigint", of: (t) => t.reach },
  likes: { type: "bigint", of: (t) => t.likes },
  comments: { type: "bigint", of: (t) => t.comments },
  shares: { type: "bigint", of: (t) => t.shares },
  attempts: { type: "integer", of: (t) => t.attempts },
  attempted_at: { type: "bigint", of: (t) => t.attempted_at },
  in_flight: { type: "integer", of: (t) => (t.in_flight ? 1 : 0) },
  outcome_unknown: { type: "integer", of: (t) => (t.outcome_unknown ? 1 : 0) },
  next_attempt_at: { type: "bigint", of: (t) => t.next_attempt_at },
  remote_id: { type: "text", of: (t) => t.remote_id },
  metrics_due_at: { type: "bigint", of: (t) => t.metrics_due_at },
  metrics_reads: { type: "integer", of: (t) => t.metrics_reads },
  publish_step: { type: "text", of: (t) => t.publish_step },
  parts: { type: "text", of: (t) => targetJsonColumn(t.parts) },
  first_comment: { type: "text", of: (t) => targetJsonColumn(t.first_comment) },
  notes: { type: "text", of: (t) => targetJsonColumn(t.notes) },
} satisfies Record<string, { type: ColumnType; of: (t: TargetRecord) => string | number | null }>;

type TargetColumn = keyof typeof TARGET_COLUMNS;
const COLUMN_NAMES = Object.keys(TARGET_COLUMNS) as TargetColumn[];

/** A target's columns, by name, as an insert or an update writes them (see TARGET_COLUMNS). */
export function targetColumns(t: TargetRecord): Record<TargetColumn, string | number | null> {
  return Object.fromEntries(COLUMN_NAMES.map((name) => [name, TARGET_COLUMNS[name].of(t)])) as Record<
    TargetColumn,
    string | number | null
  >;
}

// Statement text derived from the list (names from this file, never from input).
/** The given rows' record definition: the key, then every column with its type. */
const GIVEN_RECORD = `g(post_id text, platform text, ${COLUMN_NAMES.map((n) => `${n} ${TARGET_COLUMNS[n].type}`).join(", ")})`;
/** Every column set from the given row of the same name. */
const SET_FROM_GIVEN = COLUMN_NAMES.map((n) => `${n} = g.${n}`).join(", ");

/**
 * Writes what attempts came to on the targets of one or more posts (each named once), in one statement
 * however many posts and networks, and answers every target of those posts as it now stands (those
 * written and the others), by post (in the order of their ids) and in each post's network order, each
 * row's `written` saying whether this wrote it. A target that is not stored (its post was deleted) is
 * left out, as an UPDATE of it would change nothing; one already settled (published or failed) is
 * final and is not written over (Store.finishTargets).
 */
export function writeTargetOutcomes(
  tx: TransactionSql,
  posts: readonly { postId: string; targets: readonly TargetRecord[] }[],
): Promise<readonly Row[]> {
  const ids = posts.map((p) => p.postId);
  // One row per post and network, the last given winning, as writing them one after the other would.
  const given = posts.flatMap(({ postId, targets }) =>
    [...new Map(targets.map((t) => [t.platform, t] as const)).values()].map((t) => ({
      post_id: postId,
      platform: t.platform,
      ...targetColumns(t),
    })),
  );
  if (given.length === 0) {
    return tx`SELECT *, false AS written FROM targets WHERE post_id = ANY(${tx.array(ids)}::text[])
              ORDER BY post_id, position`;
  }
  // The statement's own snapshot does not see its UPDATE: the targets written come from RETURNING,
  // the others from the table.
  return tx`
    WITH given AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(given)}::text::jsonb) AS ${tx.unsafe(GIVEN_RECORD)}),
    written AS (
      UPDATE targets t SET ${tx.unsafe(SET_FROM_GIVEN)}
      FROM given g
      WHERE t.post_id = g.post_id AND t.platform = g.platform AND t.status = 'pending'
      RETURNING t.*)
    SELECT *, true AS written FROM written
    UNION ALL
    SELECT *, false FROM targets
    WHERE post_id = ANY(${tx.array(ids)}::text[])
      AND (post_id, platform) NOT IN (SELECT post_id, platform FROM written)
    ORDER BY post_id, position`;
}
