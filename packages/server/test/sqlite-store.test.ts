import { writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { type NewEvent, NOT_ATTEMPTED, newId, type PostRecord, type TargetRecord } from "@socialpub/core";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, SchemaTooNewError } from "../src/store/migrate.ts";
import { MIGRATIONS } from "../src/store/migrations/index.ts";
import { RECENT_ATTEMPTS_SQL } from "../src/store/sqlite/publishing.ts";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { tempDir } from "./support/temp-dir.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});
function dbFile(name = "store.db"): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir.file(name);
}

const T0 = Date.UTC(2026, 5, 15, 12);
const user = {
  id: "usr_1",
  email: "a@example.com",
  name: "A",
  studio: "S",
  plan: "free" as const,
  created_at: T0,
};
const post = (id: string, fields: Partial<PostRecord> = {}): PostRecord => ({
  id,
  user_id: user.id,
  mode: "test",
  caption: "hello",
  platforms: ["x"],
  status: "scheduled",
  media: null,
  scheduled_at: T0 + 60_000,
  published_at: null,
  created_at: T0,
  ...fields,
});
const target = (postId: string): TargetRecord => ({
  post_id: postId,
  platform: "x",
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
});
const event = (id: string): NewEvent => ({
  id,
  user_id: user.id,
  type: "post.scheduled",
  created: T0 / 1000,
  data: { post_id: "post_1", platforms: ["x"], scheduled_at: T0 + 60_000 },
});

function userVersion(path: string): number {
  const db = new DatabaseSync(path);
  try {
    return (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
  } finally {
    db.close();
  }
}

describe("SQLite store", () => {
  it("keeps every record across close and reopen of the file", async () => {
    const path = dbFile();
    const first = openSqliteStore(path);
    await first.createUser(user);
    await first.insertPost(post("post_1"), [target("post_1")], { events: [event("evt_1")] });
    await first.close();

    const second = openSqliteStore(path);
    expect(await second.getUser(user.id)).toEqual(user);
    expect(await second.getPost(user.id, "post_1")).toEqual(post("post_1"));
    expect(await second.getTargets("post_1")).toEqual([target("post_1")]);
    expect((await second.listEvents(user.id)).map((e) => e.id)).toEqual(["evt_1"]);
    await second.close();
  });

  it("journals in WAL mode so readers never wait for the writer", async () => {
    const path = dbFile();
    const store = openSqliteStore(path);
    const peek = new DatabaseSync(path);
    expect(peek.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    peek.close();
    await store.close();
  });

  it("reads an account's recent attempts through the user's posts, not through every account's attempts on the network", async () => {
    // At the top of the hour a network has thousands of attempts in its pacing window; the check runs
    // for every attempt, so it must not read them all.
    const path = dbFile();
    await openSqliteStore(path).close();
    const peek = new DatabaseSync(path);
    const plan = (
      peek.prepare(`EXPLAIN QUERY PLAN ${RECENT_ATTEMPTS_SQL}`).all("discord", "usr_1", "live", 0) as {
        detail: string;
      }[]
    ).map((step) => step.detail);
    peek.close();
    expect(plan.join("\n")).toMatch(/SEARCH p USING INDEX posts_by_user/);
    expect(plan.join("\n")).toMatch(/SEARCH t USING PRIMARY KEY/);
    expect(plan.join("\n")).not.toMatch(/targets_by_platform_attempted/);
  });

  it("brings a new database to the newest schema version, and reopening changes nothing", async () => {
    const path = dbFile();
    await openSqliteStore(path).close();
    expect(userVersion(path)).toBe(MIGRATIONS.length);
    const again = openSqliteStore(path);
    await again.createUser(user);
    await again.close();
    expect(userVersion(path)).toBe(MIGRATIONS.length);
  });

  it("moves a user's posts version when a target's figures change, not when a write repeats them", async () => {
    const path = dbFile();
    const store = openSqliteStore(path);
    await store.createUser(user);
    await store.insertPost(post("post_1"), [target("post_1")]);
    await store.close();
    const db = new DatabaseSync(path);
    try {
      const version = () =>
        (db.prepare("SELECT posts_version FROM users WHERE id = ?").get(user.id) as { posts_version: number })
          .posts_version;
      const setFigures = db.prepare(
        "UPDATE targets SET status = ?, reach = ?, likes = ?, comments = ?, shares = ? WHERE post_id = 'post_1'",
      );
      const before = version();
      setFigures.run("published", 0, 0, 0, 0);
      expect(version()).toBe(before);
      setFigures.run("published", 10, 0, 0, 0);
      expect(version()).toBe(before + 1);
      setFigures.run("published", 10, 1, 0, 0);
      expect(version()).toBe(before + 2);
    } finally {
      db.close();
    }
  });

  it("refuses a database written by a newer version of the server", async () => {
    const path = dbFile();
    const db = new DatabaseSync(path);
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => openSqliteStore(path)).toThrow(SchemaTooNewError);
  });

  it("refuses a file that is not a SQLite database", () => {
    const path = dbFile("notes.txt");
    writeFileSync(path, "these are not the tables you are looking for\n".repeat(100));
    expect(() => openSqliteStore(path)).toThrow(/not a database/);
  });

  it("the delivery-log migration keeps attempts recorded before it, giving each an id that sorts before newer ones", async () => {
    const path = dbFile();
    const db = new DatabaseSync(path);
    migrate(db, MIGRATIONS.slice(0, 2));
    db.exec(`INSERT INTO events (id, user_id, type, created, data) VALUES ('evt_1', 'usr_1', 'post.published', ${T0 / 1000}, '{}');
             INSERT INTO delivery_attempts (delivery_id, attempt, webhook_id, event_id, at, response_status, duration_ms, error)
             VALUES ('dlv_1', 1, 'wh_1', 'evt_1', ${T0}, 500, 3.5, 'the endpoint answered 500')`);
    db.close();
    const store = openSqliteStore(path);
    const [old] = await store.listDeliveryAttempts("dlv_1");
    expect(old).toMatchObject({
      attempt: 1,
      at: T0,
      response_status: 500,
      duration_ms: 3.5,
      next_attempt_at: null,
    });
    expect(old!.id).toMatch(/^att_0/);
    expect(old!.id < newId("att", T0)).toBe(true);
    expect(await store.listAttempts("wh_1", { limit: 10 })).toEqual([
      { ...old, event_type: "post.published" },
    ]);
    await store.close();
  });

  it("the rich-posts migration keeps posts and targets written before it, which then take rich content", async () => {
    const path = dbFile();
    const db = new DatabaseSync(path);
    migrate(
      db,
      MIGRATIONS.slice(
        0,
        MIGRATIONS.findIndex((m) => m.name === "rich-posts"),
      ),
    );
    db.exec(`INSERT INTO users (id, email, name, studio, plan, created_at) VALUES ('usr_1', 'a@example.com', 'A', 'S', 'free', ${T0});
             INSERT INTO posts (id, user_id, mode, caption, platforms, status, media, scheduled_at, published_at, created_at, captions)
             VALUES ('post_1', 'usr_1', 'live', 'hello', '["x","bluesky"]', 'published', 'https://example.com/a.png', NULL, ${T0 + 5}, ${T0}, '{"bluesky":"hi"}');
             INSERT INTO targets (post_id, platform, position, status, text, permalink, error, published_at, reach, likes, comments, shares, attempts, remote_id)
             VALUES ('post_1', 'x', 0, 'published', 'hello', 'https://x.com/i/1', NULL, ${T0 + 5}, 3, 2, 1, 0, 1, '1'),
                    ('post_1', 'bluesky', 1, 'failed', 'hi', NULL, 'Bluesky: refused', NULL, 0, 0, 0, 0, 2, NULL);`);
    db.close();
    const store = openSqliteStore(path);
    expect(userVersion(path)).toBe(MIGRATIONS.length);
    const old = post("post_1", {
      mode: "live",
      platforms: ["x", "bluesky"],
      status: "published",
      media: "https://example.com/a.png",
      scheduled_at: null,
      published_at: T0 + 5,
      captions: { bluesky: "hi" },
    });
    expect(await store.getPost(user.id, "post_1")).toEqual(old);
    const [x, bluesky] = await store.getTargets("post_1");
    expect(x).toEqual({
      ...target("post_1"),
      status: "published",
      permalink: "https://x.com/i/1",
      published_at: T0 + 5,
      reach: 3,
      likes: 2,
      comments: 1,
      attempts: 1,
      remote_id: "1",
    });
    for (const field of ["parts", "first_comment", "notes"]) expect(bluesky).not.toHaveProperty(field);
    // The old post takes rich content, and its targets their parts, as a new one does.
    const rich = { media: [{ ref: "https://example.com/a.png", alt: "A" }], first_comment: "More" };
    const parts = [{ text: "hi", media: [], status: "pending" as const, remote_id: null, permalink: null }];
    await store.transitionPost("post_1", ["published"], { rich }, [x!, { ...bluesky!, parts, notes: [] }]);
    expect(await store.getPost(user.id, "post_1")).toEqual({ ...old, rich });
    expect((await store.getTargets("post_1"))[1]).toMatchObject({ parts, notes: [] });
    await store.close();
  });

  it("rolls a failed migration back whole, leaving the previous version", () => {
    const db = new DatabaseSync(":memory:");
    const broken = {
      version: 2,
      name: "broken",
      sql: "CREATE TABLE extra (id TEXT); INSERT INTO missing VALUES (1);",
    };
    expect(() => migrate(db, [...MIGRATIONS.slice(0, 1), broken])).toThrow(/no such table: missing/);
    expect(db.prepare("PRAGMA user_version").get()).toEqual({ user_version: 1 });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'extra'").get()).toBeUndefined();
    db.close();
  });

  it("writes a change and its events in one transaction: when an event cannot be stored, the change is undone", async () => {
    const store = openSqliteStore(":memory:");
    await store.createUser(user);
    await store.appendEvents([event("evt_taken")]);

    await expect(
      store.insertPost(post("post_1"), [target("post_1")], { events: [event("evt_taken")] }),
    ).rejects.toThrow();
    expect(await store.getPost(user.id, "post_1")).toBeNull();
    expect(await store.getTargets("post_1")).toEqual([]);
    expect(await store.countPostsCreatedSince(user.id, 0)).toBe(0);

    await store.insertPost(post("post_2"), [target("post_2")]);
    await expect(
      store.deletePost(user.id, "post_2", () => ({ events: [event("evt_taken")] })),
    ).rejects.toThrow();
    expect(await store.getPost(user.id, "post_2")).not.toBeNull();
    await store.close();
  });

  it("two stores on one file (a server and an admin command) see each other's writes and claim a due post once", async () => {
    const path = dbFile();
    const server = openSqliteStore(path);
    const admin = openSqliteStore(path);
    await admin.createUser(user);
    expect(await server.getUser(user.id)).toEqual(user);
    await server.insertPost(post("post_1", { scheduled_at: T0 }), [target("post_1")]);
    const claims = [await server.claimDuePosts(T0, 10), await admin.claimDuePosts(T0, 10)];
    expect(claims.flat().map((p) => p.id)).toEqual(["post_1"]);
    await server.close();
    await admin.close();
  });

  it("records delivery attempts with their outcome", async () => {
    const store = openSqliteStore(":memory:");
    await store.createUser(user);
    await store.createWebhook({
      id: "wh_1",
      user_id: user.id,
      url: "https://hooks.example.com/in",
      events: ["post.scheduled"],
      secret: "whsec_test",
      status: "enabled",
      created_at: T0,
    });
    await store.appendEvents([event("evt_1")]);
    const [job] = await store.claimDueDeliveries(T0, T0 + 30_000, 10);
    await store.recordAttempt(
      {
        id: "att_1",
        delivery_id: job!.delivery.id,
        webhook_id: "wh_1",
        event_id: "evt_1",
        attempt: 1,
        at: T0,
        response_status: 503,
        duration_ms: 12.5,
        error: null,
      },
      { state: "pending", next_attempt_at: T0 + 5000 },
    );
    expect(await store.listDeliveryAttempts(job!.delivery.id)).toEqual([
      {
        id: "att_1",
        delivery_id: job!.delivery.id,
        webhook_id: "wh_1",
        event_id: "evt_1",
        attempt: 1,
        at: T0,
        response_status: 503,
        duration_ms: 12.5,
        error: null,
        next_attempt_at: T0 + 5000,
      },
    ]);
    expect(await store.listDeliveries("evt_1")).toMatchObject([
      { state: "pending", attempts: 1, next_attempt_at: T0 + 5000 },
    ]);
    await store.close();
  });
});
