import {
  IdempotencyKeyTaken,
  type NetworkId,
  type NewEvent,
  NOT_ATTEMPTED,
  newId,
  type PostRecord,
  type TargetRecord,
} from "@socialpub/core";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { emptyDatabase, newDatabase } from "./support/databases.ts";

// The outcomes of publishes that finish together are written as a group (finish-groups.ts): one
// transaction for many posts, each post still settled, announced and failed as if written alone.

const T0 = Date.UTC(2026, 5, 15, 12, 0, 0);
let url: string;
let store: PostgresStore;
let sql: postgres.Sql;

beforeAll(async () => {
  url = await newDatabase("finish");
  store = await openPostgresStore(url, { poolSize: 4 });
  sql = postgres(url, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await sql.end({ timeout: 1 });
  await store.close();
});
beforeEach(() => emptyDatabase(url));

async function user(): Promise<string> {
  const id = newId("usr", T0);
  await store.createUser({
    id,
    email: `${id.toLowerCase()}@example.com`,
    name: "Test",
    studio: "Test",
    plan: "creator",
    created_at: T0,
  });
  return id;
}

function target(postId: string, platform: NetworkId, fields: Partial<TargetRecord> = {}): TargetRecord {
  return {
    post_id: postId,
    platform,
    status: "pending",
    text: "hello",
    permalink: null,
    error: null,
    published_at: null,
    reach: 0,
    likes: 0,
    comments: 0,
    shares: 0,
    ...NOT_ATTEMPTED,
    ...fields,
  };
}

/** A post in `publishing` on `platforms`, its targets stored pending. */
async function publishingPost(userId: string, platforms: NetworkId[] = ["x"]): Promise<PostRecord> {
  const post: PostRecord = {
    id: newId("post", T0),
    user_id: userId,
    mode: "test",
    caption: "hello",
    platforms,
    status: "publishing",
    media: null,
    scheduled_at: T0,
    published_at: null,
    created_at: T0,
  };
  await store.insertPost(
    post,
    platforms.map((p) => target(post.id, p)),
  );
  return post;
}

const published = (postId: string, platform: NetworkId = "x") =>
  target(postId, platform, {
    status: "published",
    permalink: `https://example.com/${postId}/${platform}`,
    published_at: T0 + 5,
    attempts: 1,
    attempted_at: T0,
  });

const announce = (userId: string, postId: string): { events: NewEvent[] } => ({
  events: [
    {
      id: newId("evt", T0),
      user_id: userId,
      type: "post.published",
      created: Math.floor(T0 / 1000),
      data: {
        post_id: postId,
        platform: "x",
        status: "published",
        permalink: "https://example.com/",
        metrics: { reach: 0, likes: 0 },
      },
    },
  ],
});

describe("PostgreSQL: finishTargets called together", () => {
  it("writes the outcomes of many posts finishing together in one or two transactions, each post settled and announced", async () => {
    const u = await user();
    const posts = await Promise.all(Array.from({ length: 40 }, () => publishingPost(u)));
    const settled = await Promise.all(
      posts.map((p) => store.finishTargets(p.id, [published(p.id)], T0 + 5, announce(u, p.id))),
    );
    expect(settled.map((p) => p?.status)).toEqual(posts.map(() => "published"));
    expect(settled.map((p) => p?.id)).toEqual(posts.map((p) => p.id));
    for (const p of posts) expect(await store.getTargets(p.id)).toEqual([published(p.id)]);
    expect(await store.listEvents(u)).toHaveLength(40);
    // Rows written by one transaction carry its id (xmin): one per post would be a transaction each.
    const [row] = await sql<{ transactions: number }[]>`
      SELECT count(DISTINCT xmin::text)::int AS transactions FROM posts
      WHERE id IN ${sql(posts.map((p) => p.id))}`;
    expect(row!.transactions).toBeLessThanOrEqual(2);
  });

  it("a post named by two calls at once has both written: its networks settle one after the other", async () => {
    const u = await user();
    const p = await publishingPost(u, ["x", "bluesky"]);
    const [first, second] = await Promise.all([
      store.finishTargets(p.id, [published(p.id, "x")], T0 + 5),
      store.finishTargets(p.id, [published(p.id, "bluesky")], T0 + 6),
    ]);
    expect([first?.status, second?.status]).toEqual(["published", "published"]);
    expect(await store.getTargets(p.id)).toEqual([published(p.id, "x"), published(p.id, "bluesky")]);
  });

  it("one call failing (its idempotency key held by another request) fails alone: the others of its group are written", async () => {
    const u = await user();
    const posts = await Promise.all(Array.from({ length: 6 }, () => publishingPost(u)));
    await store.beginIdempotentRequest({
      user_id: u,
      key: "held",
      fingerprint: "POST /api/v1/posts abc",
      status: null,
      body: null,
      created_at: T0,
      expires_at: T0 + 86_400_000,
    });
    const claimHeld = {
      user_id: u,
      key: "held",
      fingerprint: "POST /api/v1/posts other",
      status: 201,
      body: "{}",
      created_at: T0 + 1,
      expires_at: T0 + 86_400_000,
      claim: true as const,
    };
    const results = await Promise.allSettled(
      posts.map((p, i) =>
        store.finishTargets(p.id, [published(p.id)], T0 + 5, {
          ...announce(u, p.id),
          ...(i === 2 ? { idempotency: claimHeld } : {}),
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(IdempotencyKeyTaken);
    expect((await store.getPost(u, posts[2]!.id))?.status).toBe("publishing");
    expect((await store.getTargets(posts[2]!.id))[0]?.status).toBe("pending");
    for (const i of [0, 1, 3, 4, 5]) expect((await store.getPost(u, posts[i]!.id))?.status).toBe("published");
    expect(await store.listEvents(u)).toHaveLength(5);
  });
});
