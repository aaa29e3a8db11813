import { randomBytes } from "node:crypto";
import { generateApiKey, hashApiKey, keyHint, newId, provisionUser } from "@socialpub/core";
import { WebhookReceiver } from "@socialpub/core/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { writeRetrying503 } from "../support/api-retrying.ts";
import { api, type ServerProcess, startServerProcess } from "../support/cli-process.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newDatabase } from "./support/databases.ts";

/*
 * Three server processes on one PostgreSQL database, over real HTTP: work claimed once across them,
 * a killed instance's work taken over when its lease runs out, and limits exact whichever instance a
 * request reaches.
 */

const INSTANCES = 3;
const LEASE_MS = 3000;
const RATE_LIMIT = 400;
const SECRET_KEY = randomBytes(32).toString("base64");

let db: string;
let sql: postgres.Sql;
let store: PostgresStore;
let servers: ServerProcess[] = [];
const dir = tempDir();

async function startInstance(): Promise<ServerProcess> {
  return startServerProcess(
    [
      "--db",
      db,
      "--media-dir",
      dir.file("media"),
      "--log-level",
      "error",
      "--allow-private-webhooks",
      "--rate-limit",
      String(RATE_LIMIT),
      "--publish-lease-ms",
      String(LEASE_MS),
      "--pool-size",
      "6",
    ],
    // One key for every instance: each opens the webhook secrets the others sealed.
    { SOCIALPUB_SECRET_KEY: SECRET_KEY },
  );
}

beforeAll(async () => {
  db = await newDatabase("many");
  store = await openPostgresStore(db, { poolSize: 2 });
  sql = postgres(db, { max: 2, onnotice: () => {} });
  servers = [];
  for (let i = 0; i < INSTANCES; i++) servers.push(await startInstance());
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  await sql?.end({ timeout: 1 });
  await store?.close();
  dir.remove();
});

/** A studio user (no monthly post limit) with `keys` keys, and sandbox accounts on x and bluesky. */
async function studioUser(keys = 1, plan: "studio" | "free" = "studio") {
  const made = await provisionUser(store, { plan, accounts: ["x", "bluesky"] });
  const all = [made.apiKey];
  for (let i = 1; i < keys; i++) {
    const key = generateApiKey();
    await store.createKey({
      id: newId("key"),
      user_id: made.user.id,
      hash: await hashApiKey(key),
      mode: "test",
      hint: keyHint(key),
      created_at: Date.now(),
      revoked_at: null,
    });
    all.push(key);
  }
  return { id: made.user.id, keys: all };
}

/** Runs `tasks` with at most `limit` in flight. */
async function pool<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function countRow(query: Promise<postgres.RowList<postgres.Row[]>>): Promise<number> {
  return Number((await query)[0]!.n);
}

describe("three instances on one PostgreSQL database", () => {
  it("2,000 posts due at one instant, created through all three, each publish exactly once", async () => {
    const user = await studioUser(8);
    const receiver = await WebhookReceiver.start();
    const hook = await api(servers[0]!, user.keys[0]!, "POST", "/webhooks", {
      url: receiver.url,
      events: ["post.published"],
    });
    expect(hook.status).toBe(201);
    const POSTS = 2000;
    const at = Date.now() + 5000;
    // Created as a client creates them: on a machine loaded enough that a database call passes the
    // query deadline, the service answers 503 with Retry-After, and the client sends the request again
    // with the same Idempotency-Key, so a post whose first answer was lost is not made twice.
    let retried = 0;
    const created = await pool(POSTS, 24, async (i) => {
      const res = await writeRetrying503(
        servers[i % INSTANCES]!,
        user.keys[i % user.keys.length]!,
        "POST",
        "/posts",
        { caption: `Post ${i}`, platforms: ["x", "bluesky"], scheduled_at: new Date(at).toISOString() },
      );
      retried += res.retried;
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    });
    const createdBy = Date.now();
    if (retried > 0) console.log(`many-instances: ${retried} creations answered 503 and sent again`);
    expect(new Set(created).size).toBe(POSTS);

    const published = () =>
      countRow(sql`SELECT count(*) AS n FROM posts WHERE user_id = ${user.id} AND status = 'published'`);
    await waitUntil("every post published", async () => (await published()) === POSTS, 120_000);
    const allPublishedAfterDue = Date.now() - Math.max(at, createdBy);
    console.log(
      `many-instances: ${POSTS} posts due at one instant published by ${INSTANCES} instances ${allPublishedAfterDue} ms after they were all due and created`,
    );
    // Each target once, each post.published event once per network.
    expect(
      await countRow(sql`SELECT count(*) AS n FROM targets t JOIN posts p ON p.id = t.post_id
                         WHERE p.user_id = ${user.id} AND t.status = 'published'`),
    ).toBe(POSTS * 2);
    const events = await sql`SELECT data FROM events WHERE user_id = ${user.id} AND type = 'post.published'`;
    expect(events).toHaveLength(POSTS * 2);
    const perTarget = new Set(
      events.map((e) => {
        const data = JSON.parse(e.data as string) as { post_id: string; platform: string };
        return `${data.post_id}/${data.platform}`;
      }),
    );
    expect(perTarget.size).toBe(POSTS * 2);
    // The work was shared: more than one instance published (each delivery is attempted once too).
    await receiver.waitFor(POSTS * 2);
    const ids = receiver.received.map((r) => r.headers["webhook-id"]);
    expect(new Set(ids).size).toBe(POSTS * 2);
    await receiver.down();
  }, 600_000);

  it("50 concurrent requests with one Idempotency-Key spread across the instances make one post", async () => {
    const user = await studioUser();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${servers[i % INSTANCES]!.url}/api/v1/posts`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${user.keys[0]}`,
            "content-type": "application/json",
            "idempotency-key": "launch-day",
          },
          body: JSON.stringify({ caption: "Exactly once", platforms: ["x"] }),
        }).then(async (res) => ({ status: res.status, body: await res.json() })),
      ),
    );
    for (const answer of answers) expect([201, 409]).toContain(answer.status);
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(await countRow(sql`SELECT count(*) AS n FROM posts WHERE user_id = ${user.id}`)).toBe(1);
  });

  it("the rate limit, monthly calls and posts per month are exact when requests alternate between instances", {
    timeout: 120_000,
  }, async () => {
    const limited = await studioUser();
    // The limit counts in fixed one-minute windows: start early in one, so the burst stays inside it.
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 30_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoWindow + 100));
    const answers = await pool(RATE_LIMIT + 20, 12, (i) =>
      api(servers[i % INSTANCES]!, limited.keys[0]!, "GET", "/accounts"),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(RATE_LIMIT);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(20);
    expect(await countRow(sql`SELECT calls AS n FROM api_usage WHERE user_id = ${limited.id}`)).toBe(
      RATE_LIMIT + 20,
    );

    const free = await studioUser(1, "free");
    const posts = await pool(36, 12, (i) =>
      api(servers[i % INSTANCES]!, free.keys[0]!, "POST", "/posts", {
        caption: `Draft ${i}`,
        platforms: ["x"],
        draft: true,
      }),
    );
    expect(posts.filter((a) => a.status === 201)).toHaveLength(30);
    expect(posts.filter((a) => a.status === 400 && /posts a month/.test(a.body.error))).toHaveLength(6);
  });

  it("kill -9 of an instance while it publishes and delivers: every post published once, every event delivered, taken over within a lease", async () => {
    const user = await studioUser(4);
    const receiver = await WebhookReceiver.start(async () => {
      // Slow enough that deliveries are in flight when the instance dies.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { status: 200 };
    });
    await api(servers[0]!, user.keys[0]!, "POST", "/webhooks", {
      url: receiver.url,
      events: ["post.published"],
    });
    const POSTS = 300;
    const at = Date.now() + 3000;
    await pool(POSTS, 24, async (i) => {
      const res = await writeRetrying503(
        servers[i % INSTANCES]!,
        user.keys[i % user.keys.length]!,
        "POST",
        "/posts",
        { caption: `Kill ${i}`, platforms: ["x", "bluesky"], scheduled_at: new Date(at).toISOString() },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    });
    // Kill the first instance as soon as publishing has begun.
    await waitUntil(
      "publishing to begin",
      async () =>
        (await countRow(
          sql`SELECT count(*) AS n FROM posts WHERE user_id = ${user.id} AND status <> 'scheduled'`,
        )) > 0,
      30_000,
    );
    const victim = servers.shift()!;
    await victim.stop("SIGKILL");
    const killedAt = Date.now();
    const done = () =>
      countRow(sql`SELECT count(*) AS n FROM posts WHERE user_id = ${user.id} AND status = 'published'`);
    await waitUntil("every post published after the kill", async () => (await done()) === POSTS, 60_000);
    const tookOver = Date.now() - killedAt;
    console.log(
      `many-instances: after kill -9, the survivors finished publishing ${tookOver} ms later (lease ${LEASE_MS} ms)`,
    );
    const events = await sql`SELECT data FROM events WHERE user_id = ${user.id} AND type = 'post.published'`;
    expect(events).toHaveLength(POSTS * 2);
    // Every event reaches the endpoint at least once (an attempt cut by the kill is made again).
    const delivered = new Set<string>();
    await waitUntil(
      "every event delivered",
      async () => {
        for (const r of receiver.received) delivered.add(String(r.headers["webhook-id"]));
        return delivered.size === POSTS * 2;
      },
      60_000,
    );
    await receiver.down();
    servers.push(await startInstance());
  }, 240_000);
});
