import { DatabaseSync } from "node:sqlite";
import postgres from "postgres";
import { STORE } from "./store.ts";

/**
 * Reads a server's database directly, to check what the API cannot show: rows that belong to nothing,
 * counters, the outbox, a target's saved progress. The SQLite file is opened read-only (its server
 * stopped, or between two of its writes); PostgreSQL through a connection of its own. Both stores share these tables and columns.
 */
export interface DatabaseReader {
  /** Posts without a target, targets without a post, and posts whose targets are not their platforms. */
  halfMadePosts(): Promise<string[]>;
  /** The API calls counted for a user, all months together. */
  countedApiCalls(userId: string): Promise<number>;
  /** post.published events per post id and network, from the outbox. */
  publishedEvents(): Promise<Map<string, string[]>>;
  /** A target's saved publish progress (its `publish_step`, JSON text), or null. */
  publishStep(postId: string, platform: string): Promise<string | null>;
}

type Row = Record<string, unknown>;
type Query = (text: string, ...params: (string | number)[]) => Promise<Row[]>;

export async function readDatabase<T>(
  location: string,
  read: (db: DatabaseReader) => Promise<T>,
): Promise<T> {
  if (STORE === "postgres") {
    const sql = postgres(location, { max: 1, onnotice: () => {} });
    try {
      // The same statements with PostgreSQL's numbered parameters.
      return await read(
        reader((text, ...params) => {
          let n = 0;
          return sql.unsafe(
            text.replace(/\?/g, () => `$${++n}`),
            params,
          ) as unknown as Promise<Row[]>;
        }),
      );
    } finally {
      await sql.end({ timeout: 1 });
    }
  }
  const db = new DatabaseSync(location, { readOnly: true });
  try {
    return await read(reader(async (text, ...params) => db.prepare(text).all(...params) as Row[]));
  } finally {
    db.close();
  }
}

function reader(query: Query): DatabaseReader {
  return {
    async halfMadePosts() {
      const problems: string[] = [];
      for (const row of await query(
        "SELECT id FROM posts p WHERE NOT EXISTS (SELECT 1 FROM targets t WHERE t.post_id = p.id)",
      )) {
        problems.push(`post ${row.id} has no targets`);
      }
      for (const row of await query(
        "SELECT DISTINCT post_id FROM targets WHERE post_id NOT IN (SELECT id FROM posts)",
      )) {
        problems.push(`targets of ${row.post_id} have no post`);
      }
      const targets = new Map<string, string[]>();
      for (const row of await query("SELECT post_id, platform FROM targets ORDER BY post_id, position")) {
        const list = targets.get(row.post_id as string) ?? [];
        list.push(row.platform as string);
        targets.set(row.post_id as string, list);
      }
      for (const row of await query("SELECT id, platforms FROM posts")) {
        const platforms = JSON.parse(row.platforms as string) as string[];
        const got = targets.get(row.id as string) ?? [];
        if (got.join(",") !== platforms.join(",")) {
          problems.push(`post ${row.id} targets ${got.join(",")} instead of ${platforms.join(",")}`);
        }
      }
      return problems;
    },
    async countedApiCalls(userId) {
      const [row] = await query(
        "SELECT COALESCE(SUM(calls), 0) AS calls FROM api_usage WHERE user_id = ?",
        userId,
      );
      return Number(row?.calls ?? 0);
    },
    async publishedEvents() {
      const byPost = new Map<string, string[]>();
      for (const row of await query("SELECT data FROM events WHERE type = 'post.published'")) {
        const data = JSON.parse(row.data as string) as { post_id: string; platform: string };
        byPost.set(data.post_id, [...(byPost.get(data.post_id) ?? []), data.platform].sort());
      }
      return byPost;
    },
    async publishStep(postId, platform) {
      const [row] = await query(
        "SELECT publish_step FROM targets WHERE post_id = ? AND platform = ?",
        postId,
        platform,
      );
      return (row?.publish_step as string | null | undefined) ?? null;
    },
  };
}
