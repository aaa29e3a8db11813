import { join } from "node:path";
import { createService, type Service, silentLogger } from "../../packages/core/src/index.ts";
import { openSqliteStore } from "../../packages/server/src/index.ts";
import { observed } from "./observed-store.ts";
import { createDatabase, insertScheduledPosts } from "./seed.ts";

export interface Burst {
  /** When every post falls due (Unix ms). */
  dueAt: number;
  /** How long writing the posts took (ms). */
  insertMs: number;
  /** When each post became published (the moment its transition committed). */
  publishedAt: Map<string, number>;
  close(): Promise<void>;
}

/**
 * `posts` sandbox posts to three networks, one user's, all due 2 s from now, written into a SQLite file
 * in `dir` before a service on it starts — the store opened as the server opens it (WAL checkpointed in
 * the background) and watched for each post's publishing.
 */
export async function startBurst(dir: string, posts: number): Promise<Burst> {
  const dbPath = join(dir, "burst.db");
  const [user] = await createDatabase(dbPath, 1);
  const dueAt = Date.now() + 2000;
  const started = performance.now();
  insertScheduledPosts(dbPath, user!.userId, posts, dueAt);
  const insertMs = performance.now() - started;
  const sqlite = openSqliteStore(dbPath, { checkpointInBackground: true });
  const { store, publishedAt } = observed(sqlite);
  const service: Service = createService({ store, logger: silentLogger, rateLimit: false });
  await service.start();
  const close = async () => {
    await service.close();
    await sqlite.close();
  };
  if (Date.now() >= dueAt) {
    await close();
    throw new Error("writing the posts took longer than the 2 s margin");
  }
  return { dueAt, insertMs, publishedAt, close };
}
