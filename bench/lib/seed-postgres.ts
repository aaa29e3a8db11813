import postgres from "postgres";
import { newId } from "../../packages/core/src/index.ts";
import { BENCH_NETWORKS, CAPTIONS } from "./seed.ts";

/**
 * `insertScheduledPosts` for a PostgreSQL database: the same rows (posts, their creation rows, pending
 * targets, the post.scheduled event), sent as multi-row inserts of 1 000 posts each in one transaction.
 */
export async function insertScheduledPostsPostgres(
  url: string,
  userId: string,
  count: number,
  dueAt: number,
): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const now = Date.now();
    await sql.begin(async (tx) => {
      for (let from = 0; from < count; from += 1000) {
        const posts = [];
        const creations = [];
        const targets: Record<string, string | number>[] = [];
        const events = [];
        for (let i = from; i < Math.min(count, from + 1000); i++) {
          const id = newId("post", now);
          const caption = CAPTIONS[i % CAPTIONS.length]!;
          posts.push({
            id,
            user_id: userId,
            caption,
            platforms: JSON.stringify(BENCH_NETWORKS),
            status: "scheduled",
            scheduled_at: dueAt,
            created_at: now,
          });
          creations.push({ user_id: userId, post_id: id, created_at: now });
          BENCH_NETWORKS.forEach((platform, position) => {
            targets.push({
              post_id: id,
              platform,
              position,
              status: "pending",
              text: caption,
              reach: 0,
              likes: 0,
              comments: 0,
              shares: 0,
            });
          });
          events.push({
            id: newId("evt", now),
            user_id: userId,
            type: "post.scheduled",
            created: Math.floor(now / 1000),
            data: JSON.stringify({ post_id: id, platforms: BENCH_NETWORKS, scheduled_at: dueAt }),
          });
        }
        await tx`INSERT INTO posts ${tx(posts)}`;
        await tx`INSERT INTO post_creations ${tx(creations)}`;
        await tx`INSERT INTO targets ${tx(targets)}`;
        await tx`INSERT INTO events ${tx(events)}`;
      }
    });
  } finally {
    await sql.end({ timeout: 1 });
  }
}
