import { DatabaseSync } from "node:sqlite";
import { type NetworkId, newId, provisionUser, type Store } from "../../packages/core/src/index.ts";
import { openSqliteStore } from "../../packages/server/src/index.ts";

/** The three networks every benchmark post goes to; none of them needs media. */
export const BENCH_NETWORKS: readonly NetworkId[] = ["x", "linkedin", "bluesky"];

export interface BenchUser {
  userId: string;
  apiKey: string;
}

/**
 * Creates the database (schema included) with `count` studio-plan users, each with a key and the three
 * networks connected. Several users, because each counts its calls against the plan's 100 000 a month:
 * a benchmark gives each connection a user of its own, as many clients of one service would be.
 */
export async function createDatabase(path: string, count: number): Promise<BenchUser[]> {
  const store = openSqliteStore(path);
  try {
    return await provisionBenchUsers(store, count);
  } finally {
    await store.close();
  }
}

/** The users of `createDatabase`, in any store (the PostgreSQL benchmark provisions them in both). */
export async function provisionBenchUsers(store: Store, count: number): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let i = 0; i < count; i++) {
    const { user, apiKey } = await provisionUser(store, {
      plan: "studio",
      email: `bench-${i}@example.com`,
      name: `Bench User ${i}`,
      studio: `Bench Studio ${i}`,
      accounts: BENCH_NETWORKS,
    });
    users.push({ userId: user.id, apiKey });
  }
  return users;
}

export const CAPTIONS = [
  "Release 2.4 is out: faster uploads, a new scheduler view and fixes for the calendar export.",
  "Five things we learned shipping our API to 10 000 teams, and the one we would do differently.",
  "Live now: the spring collection, photographed in Lisbon. Tell us which piece you would pick first.",
  "We are hiring two backend engineers (remote, Europe). Read the role and apply before 30 June.",
];

/**
 * Inserts `count` published posts of `userId` (three networks each, with their targets and the row that
 * counts them against the month) straight into the database file, in large transactions: seeding
 * through the API or one store call per post would take minutes for a million posts. The rows are what
 * the store writes when a post is published now; post ids are time-sortable, oldest first. Returns the
 * ids of the posts inserted, newest last.
 */
export function insertPublishedPosts(path: string, userId: string, count: number): string[] {
  const db = new DatabaseSync(path);
  try {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    // This connection only (the benchmark's, not the server's): with SQLite's default 2 MB of pages, a
    // million posts in four indexes re-read pages they just wrote; 256 MB seeds them about 2.5× faster.
    db.exec("PRAGMA cache_size = -262144");
    const post = db.prepare(
      `INSERT INTO posts (id, user_id, caption, platforms, status, media, scheduled_at, published_at, created_at)
       VALUES (?, ?, ?, ?, 'published', NULL, NULL, ?, ?)`,
    );
    const creation = db.prepare("INSERT INTO post_creations (user_id, post_id, created_at) VALUES (?, ?, ?)");
    const target = db.prepare(
      `INSERT INTO targets (post_id, platform, position, status, text, permalink, error, published_at,
                            reach, likes, comments, shares)
       VALUES (?, ?, ?, 'published', ?, ?, NULL, ?, ?, ?, ?, ?)`,
    );
    const platforms = JSON.stringify(BENCH_NETWORKS);
    // One post a minute, ending now: the newest posts are the ones a list shows first.
    const start = Date.now() - count * 60_000;
    const ids: string[] = [];
    const BATCH = 20_000;
    for (let from = 0; from < count; from += BATCH) {
      db.exec("BEGIN");
      for (let i = from; i < Math.min(count, from + BATCH); i++) {
        const at = start + i * 60_000;
        const id = newId("post", at);
        const caption = CAPTIONS[i % CAPTIONS.length]!;
        post.run(id, userId, caption, platforms, at, at);
        creation.run(userId, id, at);
        BENCH_NETWORKS.forEach((platform, position) => {
          const reach = (i * 7919 + position * 104_729) % 50_000;
          target.run(
            id,
            platform,
            position,
            caption,
            `https://example.com/${platform}/${id}`,
            at,
            reach,
            reach % 997,
            reach % 89,
            reach % 41,
          );
        });
        ids.push(id);
      }
      db.exec("COMMIT");
    }
    return ids;
  } finally {
    db.close();
  }
}

/**
 * Sets every user's API calls this month back to zero, between rounds of a benchmark that sends all its
 * load as one user: the plan's 100 000 calls a month would otherwise end the run with 429s.
 */
export function resetMonthlyCalls(path: string): void {
  const db = new DatabaseSync(path, { timeout: 5000 });
  try {
    db.exec("UPDATE api_usage SET calls = 0");
  } finally {
    db.close();
  }
}

/**
 * Inserts `count` posts of `userId` scheduled for `dueAt` (three networks, pending targets, the
 * post.scheduled event), as POST /posts with schedule_at would store them, in one transaction.
 */
export function insertScheduledPosts(path: string, userId: string, count: number, dueAt: number): void {
  const db = new DatabaseSync(path, { timeout: 5000 });
  try {
    const post = db.prepare(
      `INSERT INTO posts (id, user_id, caption, platforms, status, media, scheduled_at, published_at, created_at)
       VALUES (?, ?, ?, ?, 'scheduled', NULL, ?, NULL, ?)`,
    );
    const creation = db.prepare("INSERT INTO post_creations (user_id, post_id, created_at) VALUES (?, ?, ?)");
    const target = db.prepare(
      `INSERT INTO targets (post_id, platform, position, status, text, permalink, error, published_at,
                            reach, likes, comments, shares)
       VALUES (?, ?, ?, 'pending', ?, NULL, NULL, NULL, 0, 0, 0, 0)`,
    );
    const event = db.prepare(
      "INSERT INTO events (id, user_id, type, created, data, webhook_id) VALUES (?, ?, 'post.scheduled', ?, ?, NULL)",
    );
    const now = Date.now();
    db.exec("BEGIN");
    for (let i = 0; i < count; i++) {
      const id = newId("post", now);
      const caption = CAPTIONS[i % CAPTIONS.length]!;
      post.run(id, userId, caption, JSON.stringify(BENCH_NETWORKS), dueAt, now);
      creation.run(userId, id, now);
      BENCH_NETWORKS.forEach((platform, position) => {
        target.run(id, platform, position, caption);
      });
      event.run(
        newId("evt", now),
        userId,
        Math.floor(now / 1000),
        JSON.stringify({ post_id: id, platforms: BENCH_NETWORKS, scheduled_at: dueAt }),
      );
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}
