import { DatabaseSync } from "node:sqlite";

/**
 * Reads a stopped server's SQLite file directly, to check what the API cannot show: rows that belong
 * to nothing, counters, the outbox.
 */
export function readDatabase<T>(path: string, read: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** Posts without a target, targets without a post, and posts whose targets are not their platforms. */
export function halfMadePosts(db: DatabaseSync): string[] {
  const problems: string[] = [];
  for (const row of db
    .prepare("SELECT id FROM posts p WHERE NOT EXISTS (SELECT 1 FROM targets t WHERE t.post_id = p.id)")
    .all()) {
    problems.push(`post ${row.id} has no targets`);
  }
  for (const row of db
    .prepare("SELECT DISTINCT post_id FROM targets WHERE post_id NOT IN (SELECT id FROM posts)")
    .all()) {
    problems.push(`targets of ${row.post_id} have no post`);
  }
  const targets = new Map<string, string[]>();
  for (const row of db.prepare("SELECT post_id, platform FROM targets ORDER BY post_id, position").all()) {
    const list = targets.get(row.post_id as string) ?? [];
    list.push(row.platform as string);
    targets.set(row.post_id as string, list);
  }
  for (const row of db.prepare("SELECT id, platforms FROM posts").all()) {
    const platforms = JSON.parse(row.platforms as string) as string[];
    const got = targets.get(row.id as string) ?? [];
    if (got.join(",") !== platforms.join(",")) {
      problems.push(`post ${row.id} targets ${got.join(",")} instead of ${platforms.join(",")}`);
    }
  }
  return problems;
}

/** The API calls counted for a user, all months together. */
export function countedApiCalls(db: DatabaseSync, userId: string): number {
  const row = db
    .prepare("SELECT COALESCE(SUM(calls), 0) AS calls FROM api_usage WHERE user_id = ?")
    .get(userId);
  return Number(row?.calls ?? 0);
}

/** post.published events per post id and network, from the outbox. */
export function publishedEvents(db: DatabaseSync): Map<string, string[]> {
  const byPost = new Map<string, string[]>();
  for (const row of db.prepare("SELECT data FROM events WHERE type = 'post.published'").all()) {
    const data = JSON.parse(row.data as string) as { post_id: string; platform: string };
    byPost.set(data.post_id, [...(byPost.get(data.post_id) ?? []), data.platform].sort());
  }
  return byPost;
}
