import type { AccountRecord, KeyMode, NetworkId, RecentAttempt } from "@socialpub/core";
import DataLoader from "dataloader";
import { toAccount } from "../rows.ts";
import type { PostgresCore } from "./core.ts";
import { type AttemptsToStart, type StartedAttempts, startAttempts } from "./publishing.ts";

/** Calls gathered into one statement at most: bounds a statement's size. */
const BATCH_MOST = 100;

/**
 * The calls of one turn of the event loop (microtasks included) as one statement: a DataLoader with no
 * cache (each call reads the database as it is when the statement runs, after the call was made) that
 * sends its batch on the next turn. `load` answers one value per key, in the keys' order.
 */
function perTurn<K, V>(load: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V> {
  return new DataLoader(load, {
    cache: false,
    maxBatchSize: BATCH_MOST,
    batchScheduleFn: (send) => setImmediate(send),
  });
}

export interface AccountAsked {
  userId: string;
  mode: KeyMode;
  platform: NetworkId;
}

export interface AttemptsAsked extends AccountAsked {
  since: number;
}

/**
 * What every scheduled or retried post does before its request goes out — start its attempts, read its
 * account, read its pacing — batched per turn: at the top of the hour hundreds of posts start within
 * milliseconds of each other, and one statement each (its round trip, its parse and plan, the driver's
 * work on both sides) cost a shared database and the instances more than the rows themselves. What each
 * caller gets is what its own statement would have answered, run no earlier than its call.
 */
export class TurnBatches {
  readonly startAttempts: DataLoader<AttemptsToStart, StartedAttempts>;
  readonly account: DataLoader<AccountAsked, AccountRecord | null>;
  readonly recentAttempts: DataLoader<AttemptsAsked, RecentAttempt[]>;

  constructor(core: PostgresCore) {
    // A post named twice in one turn is started by a second statement after the first: in one, both
    // would change the same rows.
    this.startAttempts = perTurn(async (asked) => {
      const answers: StartedAttempts[] = [];
      let left = asked.map((attempt, at) => ({ attempt, at }));
      while (left.length > 0) {
        const posts = new Set<string>();
        const now: typeof left = [];
        const later: typeof left = [];
        for (const item of left) {
          if (posts.has(item.attempt.postId)) later.push(item);
          else {
            posts.add(item.attempt.postId);
            now.push(item);
          }
        }
        const started = await startAttempts(
          core,
          now.map((item) => item.attempt),
        );
        now.forEach((item, i) => {
          answers[item.at] = started[i]!;
        });
        left = later;
      }
      return answers;
    });

    this.account = perTurn(async (asked) => {
      const rows = await core.rows(
        () => core.sql`
          SELECT a.*, q.i AS asked FROM unnest(
              ${core.sql.array(asked.map((a) => a.userId))}::text[],
              ${core.sql.array(asked.map((a) => a.mode))}::text[],
              ${core.sql.array(asked.map((a) => a.platform))}::text[]
            ) WITH ORDINALITY AS q(user_id, mode, platform, i)
          JOIN accounts a ON a.user_id = q.user_id AND a.mode = q.mode AND a.platform = q.platform`,
      );
      const answers: (AccountRecord | null)[] = asked.map(() => null);
      for (const row of rows) answers[Number(row.asked) - 1] = toAccount(row);
      return answers;
    });

    // As recentAttempts alone (publishing.ts): each asker's posts, then each one's target on the network
    // by its primary key; OFFSET 0 keeps the planner from flattening the inner read into a scan.
    this.recentAttempts = perTurn(async (asked) => {
      const rows = await core.rows(
        () => core.sql`
          SELECT q.i AS asked, t.at, t.in_flight FROM unnest(
              ${core.sql.array(asked.map((a) => a.userId))}::text[],
              ${core.sql.array(asked.map((a) => a.mode))}::text[],
              ${core.sql.array(asked.map((a) => a.platform))}::text[],
              ${core.sql.array(asked.map((a) => a.since))}::int8[]
            ) WITH ORDINALITY AS q(user_id, mode, platform, since, i)
          CROSS JOIN LATERAL (
            SELECT t.at, t.in_flight FROM posts p
            CROSS JOIN LATERAL (
              SELECT attempted_at AS at, in_flight FROM targets
              WHERE post_id = p.id AND platform = q.platform OFFSET 0) t
            WHERE p.user_id = q.user_id AND p.mode = q.mode AND t.at >= q.since) t
          ORDER BY q.i, t.at`,
      );
      const answers: RecentAttempt[][] = asked.map(() => []);
      for (const row of rows) {
        answers[Number(row.asked) - 1]!.push({ at: Number(row.at), in_flight: row.in_flight === 1 });
      }
      return answers;
    });
  }
}
