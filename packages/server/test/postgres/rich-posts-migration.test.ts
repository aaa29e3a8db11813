import { NOT_ATTEMPTED, type PostRecord } from "@socialpub/core";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { migratePostgres } from "../../src/store/postgres/migrate.ts";
import { POSTGRES_MIGRATIONS } from "../../src/store/postgres/migrations/index.ts";
import { openPostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { newDatabase } from "./support/databases.ts";

const T0 = Date.UTC(2026, 5, 15, 12);

describe("the rich-posts migration on PostgreSQL", () => {
  it("keeps posts and targets written before it, which then take rich content", async () => {
    const url = await newDatabase("rich");
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const before = POSTGRES_MIGRATIONS.findIndex((m) => m.name === "rich-posts");
      expect(before).toBeGreaterThan(0);
      await migratePostgres(sql, POSTGRES_MIGRATIONS.slice(0, before));
      await sql`INSERT INTO users (id, email, name, studio, plan, created_at)
                VALUES ('usr_1', 'a@example.com', 'A', 'S', 'free', ${T0})`;
      await sql`INSERT INTO posts (id, user_id, mode, caption, platforms, status, media, scheduled_at,
                                   published_at, created_at, captions)
                VALUES ('post_1', 'usr_1', 'live', 'hello', '["x","bluesky"]', 'published',
                        'https://example.com/a.png', NULL, ${T0 + 5}, ${T0}, '{"bluesky":"hi"}')`;
      await sql`INSERT INTO targets (post_id, platform, position, status, text, permalink, error, published_at,
                                     reach, likes, comments, shares, attempts, remote_id)
                VALUES ('post_1', 'x', 0, 'published', 'hello', 'https://x.com/i/1', NULL, ${T0 + 5},
                        3, 2, 1, 0, 1, '1'),
                       ('post_1', 'bluesky', 1, 'failed', 'hi', NULL, 'Bluesky: refused', NULL,
                        0, 0, 0, 0, 2, NULL)`;
    } finally {
      await sql.end({ timeout: 1 });
    }

    const store = await openPostgresStore(url, { poolSize: 2 });
    try {
      const old: PostRecord = {
        id: "post_1",
        user_id: "usr_1",
        mode: "live",
        caption: "hello",
        platforms: ["x", "bluesky"],
        status: "published",
        media: "https://example.com/a.png",
        scheduled_at: null,
        published_at: T0 + 5,
        created_at: T0,
        captions: { bluesky: "hi" },
      };
      expect(await store.getPost("usr_1", "post_1")).toEqual(old);
      const [x, bluesky] = await store.getTargets("post_1");
      expect(x).toEqual({
        post_id: "post_1",
        platform: "x",
        status: "published",
        text: "hello",
        permalink: "https://x.com/i/1",
        error: null,
        published_at: T0 + 5,
        reach: 3,
        likes: 2,
        comments: 1,
        shares: 0,
        ...NOT_ATTEMPTED,
        attempts: 1,
        remote_id: "1",
      });
      for (const field of ["parts", "first_comment", "notes"]) expect(bluesky).not.toHaveProperty(field);
      // The old post takes rich content, and its targets their parts, as a new one does.
      const rich = { media: [{ ref: "https://example.com/a.png", alt: "A" }], first_comment: "More" };
      const parts = [{ text: "hi", media: [], status: "pending" as const, remote_id: null, permalink: null }];
      await store.transitionPost("post_1", ["published"], { rich }, [x!, { ...bluesky!, parts, notes: [] }]);
      expect(await store.getPost("usr_1", "post_1")).toEqual({ ...old, rich });
      expect((await store.getTargets("post_1"))[1]).toMatchObject({ parts, notes: [] });
    } finally {
      await store.close();
    }
  }, 60_000);
});
