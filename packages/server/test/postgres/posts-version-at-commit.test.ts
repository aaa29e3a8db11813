import { newId, type PostRecord, provisionUser } from "@socialpub/core";
import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { newDatabase } from "./support/databases.ts";

/*
 * The version of a user's posts (what cached pages of GET /posts are filed under) moves in the
 * transaction of every change, at its commit: a transaction changing one of a user's posts does not
 * hold the user's other writers (the scheduler publishing several of its posts at once, on any
 * instance) until it ends, and each transaction moves the version once, whatever it changed.
 */

let url: string;
let store: PostgresStore;
let a: postgres.Sql;
let b: postgres.Sql;

beforeAll(async () => {
  url = await newDatabase("version");
  store = await openPostgresStore(url, { poolSize: 2 });
  a = postgres(url, { max: 1, onnotice: () => {} });
  // Were the user's row locked by the open transaction, this connection's change would wait for it
  // and be cancelled.
  b = postgres(url, { max: 1, onnotice: () => {}, connection: { statement_timeout: 2000 } });
}, 60_000);

afterAll(async () => {
  await a?.end({ timeout: 1 });
  await b?.end({ timeout: 1 });
  await store?.close();
});

async function draft(userId: string, caption: string): Promise<PostRecord> {
  const now = Date.now();
  const post: PostRecord = {
    id: newId("post", now),
    user_id: userId,
    mode: "test",
    caption,
    platforms: ["x"],
    status: "draft",
    media: null,
    scheduled_at: null,
    published_at: null,
    created_at: now,
  };
  await store.insertPost(post, []);
  return post;
}

it("a change to one of a user's posts does not hold the user's other writers until it commits", async () => {
  const { user } = await provisionUser(store, { plan: "studio", accounts: ["x"] });
  const one = await draft(user.id, "one");
  const two = await draft(user.id, "two");
  const version = async () =>
    Number((await b`SELECT posts_version AS v FROM users WHERE id = ${user.id}`)[0]!.v);
  const before = await version();

  let finish!: () => void;
  const open = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let changed!: () => void;
  const firstChanged = new Promise<void>((resolve) => {
    changed = resolve;
  });
  const first = a.begin(async (tx) => {
    await tx`UPDATE posts SET caption = 'one, edited' WHERE id = ${one.id}`;
    changed();
    await open;
  });
  await firstChanged;
  // The first transaction is open and has changed a post of the user: the second commits regardless.
  await b`UPDATE posts SET caption = 'two, edited' WHERE id = ${two.id}`;
  // Its commit moved the version; the open transaction's change is not seen yet, nor its version.
  expect(await version()).toBe(before + 1);
  finish();
  await first;
  expect(await version()).toBe(before + 2);
});

it("a transaction moves the version once however many of the user's posts and targets it changes, and the next moves it again", async () => {
  const { user } = await provisionUser(store, { plan: "studio", accounts: ["x"] });
  const posts = [await draft(user.id, "a"), await draft(user.id, "b"), await draft(user.id, "c")];
  const version = async () =>
    Number((await b`SELECT posts_version AS v FROM users WHERE id = ${user.id}`)[0]!.v);
  const before = await version();
  const ids = posts.map((p) => p.id);
  for (let round = 1; round <= 2; round++) {
    // The same connection each time: what a transaction remembers of its bumps ends with it.
    await a.begin(async (tx) => {
      await tx`UPDATE posts SET caption = ${`round ${round}`} WHERE id = ANY(${tx.array(ids)}::text[])`;
      await tx`DELETE FROM posts WHERE id = ${ids.pop()!}`;
    });
    expect(await version()).toBe(before + round);
  }
});
