import { provisionUser } from "@socialpub/core";
import { FakeClock } from "@socialpub/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../src/logging.ts";
import { startServer } from "../src/server.ts";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import {
  api,
  type ServerProcess,
  startCrashingServer,
  startServerProcess,
  TEST_KEY,
} from "./support/cli-process.ts";
import { tempDir } from "./support/temp-dir.ts";

const DAY = 86_400_000;
const dirs: ReturnType<typeof tempDir>[] = [];
const servers: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop("SIGKILL")));
  for (const dir of dirs.splice(0)) dir.remove();
});

/** POST /posts with an Idempotency-Key, over HTTP. */
async function keyedPost(url: string, key: string, idempotencyKey: string, body: unknown) {
  const res = await fetch(`${url}/api/v1/posts`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      "idempotency-key": idempotencyKey,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, replayed: res.headers.get("idempotent-replayed"), body: await res.json() };
}

describe("Idempotency-Key is durable", () => {
  it("a key survives a restart of the server process (even a kill -9): the retry replays, nothing is created twice", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const args = ["--dev", "--dev-key", TEST_KEY, "--db", dir.file("keys.db"), "--log-level", "warn"];
    const body = { caption: "Release 3.0", platforms: ["x", "bluesky"] };
    let server = await startServerProcess(args);
    servers.push(server);
    const first = await keyedPost(server.url, TEST_KEY, "release-3.0", body);
    expect(first.status).toBe(201);
    expect(first.replayed).toBeNull();
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");

    server = await startServerProcess(args);
    servers.push(server);
    const again = await keyedPost(server.url, TEST_KEY, "release-3.0", body);
    expect(again).toEqual({ status: 201, replayed: "true", body: first.body });
    const other = await keyedPost(server.url, TEST_KEY, "release-3.0", { ...body, caption: "Changed" });
    expect(other.status).toBe(422);
    const posts = await api(server, TEST_KEY, "GET", "/posts");
    expect(posts.body.data.map((p: { id: string }) => p.id)).toEqual([first.body.id]);
  });

  it("a refused request leaves its key unused, across a kill -9 too: once the cause is fixed, the retry with the same key publishes, once", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const args = ["--dev", "--dev-key", TEST_KEY, "--db", dir.file("refused.db"), "--log-level", "warn"];
    const body = { caption: "Release 3.1", platforms: ["reddit"] };
    let server = await startServerProcess(args);
    servers.push(server);
    const refused = await keyedPost(server.url, TEST_KEY, "release-3.1", body);
    expect(refused).toEqual({
      status: 400,
      replayed: null,
      body: { error: "Select at least one connected network." },
    });
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");

    server = await startServerProcess(args);
    servers.push(server);
    expect((await api(server, TEST_KEY, "POST", "/accounts/connect", { platform: "reddit" })).status).toBe(
      201,
    );
    const fixed = await keyedPost(server.url, TEST_KEY, "release-3.1", body);
    expect(fixed).toMatchObject({ status: 201, replayed: null, body: { status: "published" } });
    expect(await keyedPost(server.url, TEST_KEY, "release-3.1", body)).toEqual({
      ...fixed,
      replayed: "true",
    });
    const posts = await api(server, TEST_KEY, "GET", "/posts");
    expect(posts.body.data.map((p: { id: string }) => p.id)).toEqual([fixed.body.id]);
  });

  it("a key is kept 24 hours across restarts, then expires (fake clock)", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const db = dir.file("expiry.db");
    const clock = new FakeClock();
    let store = openSqliteStore(db);
    const { apiKey } = await provisionUser(store, { plan: "studio", accounts: ["x"], now: clock.now() });
    const start = async (now: number) => {
      const c = new FakeClock(now);
      return startServer({ port: 0, store, clock: c, logger: createLogger({ level: "silent" }) });
    };
    const body = { caption: "Daily digest", platforms: ["x"] };

    let server = await start(clock.now());
    const first = await keyedPost(server.url, apiKey, "digest", body);
    expect(first.status).toBe(201);
    await server.close();
    await store.close();

    store = openSqliteStore(db);
    server = await start(clock.now() + DAY - 1);
    expect(await keyedPost(server.url, apiKey, "digest", body)).toMatchObject({
      status: 201,
      replayed: "true",
      body: { id: first.body.id },
    });
    await server.close();
    await store.close();

    store = openSqliteStore(db);
    server = await start(clock.now() + DAY);
    const fresh = await keyedPost(server.url, apiKey, "digest", body);
    expect(fresh.status).toBe(201);
    expect(fresh.replayed).toBeNull();
    expect(fresh.body.id).not.toBe(first.body.id);
    await server.close();
    await store.close();
  });
});

describe("a crash between a keyed write and the answer", () => {
  /** A database with the test key's user (studio plan, x and bluesky connected); its user id. */
  async function database(dir: ReturnType<typeof tempDir>): Promise<{ db: string; userId: string }> {
    const db = dir.file("crash.db");
    const store = openSqliteStore(db);
    const { user } = await provisionUser(store, {
      key: TEST_KEY,
      plan: "studio",
      accounts: ["x", "bluesky"],
    });
    await store.close();
    return { db, userId: user.id };
  }

  /** Sends the keyed POST /posts to a server that dies by SIGKILL right after that store call commits. */
  async function crashAfter(db: string, method: string, key: string, body: unknown): Promise<void> {
    const crashing = await startCrashingServer(db, method);
    servers.push(crashing);
    await expect(keyedPost(crashing.url, TEST_KEY, key, body)).rejects.toThrow();
    expect(await crashing.stop()).toBe("SIGKILL");
  }

  async function restart(db: string): Promise<ServerProcess> {
    const server = await startServerProcess(["--db", db, "--log-level", "warn"]);
    servers.push(server);
    return server;
  }

  /** The types of the user's events in the outbox, read from the database file. */
  async function eventTypes(db: string, userId: string): Promise<string[]> {
    const store = openSqliteStore(db);
    try {
      return (await store.listEvents(userId)).map((e) => e.type);
    } finally {
      await store.close();
    }
  }

  async function postIds(server: ServerProcess): Promise<string[]> {
    return (await api(server, TEST_KEY, "GET", "/posts")).body.data.map((p: { id: string }) => p.id);
  }

  it("the post is written and the process dies before answering: the retry after the restart replays that post, and there is one", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const { db, userId } = await database(dir);
    const at = Date.now() + 3_600_000;
    const body = { caption: "Release 4.0 tomorrow", platforms: ["x", "bluesky"], schedule_at: at };
    await crashAfter(db, "insertPost", "release-4.0", body);

    const server = await restart(db);
    const retry = await keyedPost(server.url, TEST_KEY, "release-4.0", body);
    expect(retry).toMatchObject({
      status: 201,
      replayed: "true",
      body: {
        caption: "Release 4.0 tomorrow",
        platforms: ["x", "bluesky"],
        status: "scheduled",
        scheduled_at: at,
      },
    });
    expect(await api(server, TEST_KEY, "GET", `/posts/${retry.body.id}`)).toEqual({
      status: 200,
      body: retry.body,
    });
    expect(await postIds(server)).toEqual([retry.body.id]);
    expect((await keyedPost(server.url, TEST_KEY, "release-4.0", { ...body, caption: "Other" })).status).toBe(
      422,
    );
    expect(await eventTypes(db, userId)).toEqual(["post.scheduled"]);
  });

  it("publish now to sandbox networks, cut right after its one write: the retry replays the published post", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const { db, userId } = await database(dir);
    const body = { caption: "Shipped", platforms: ["x", "bluesky"] };
    // Sandbox networks publish in place: the post is written once, already published (publish-in-place.ts).
    await crashAfter(db, "insertPost", "shipped", body);

    const server = await restart(db);
    const retry = await keyedPost(server.url, TEST_KEY, "shipped", body);
    expect(retry).toMatchObject({
      status: 201,
      replayed: "true",
      body: { caption: "Shipped", status: "published", scheduled_at: null, published_at: expect.any(Number) },
    });
    expect(await api(server, TEST_KEY, "GET", `/posts/${retry.body.id}`)).toEqual({
      status: 200,
      body: retry.body,
    });
    expect(await postIds(server)).toEqual([retry.body.id]);
    expect(await keyedPost(server.url, TEST_KEY, "shipped", body)).toEqual(retry);
    expect(await eventTypes(db, userId)).toEqual(["post.published", "post.published"]);
  });

  it("the key is looked up and the process dies before writing anything: right after the restart the retry runs the request, once", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const { db } = await database(dir);
    const body = { caption: "Try again", platforms: ["x"] };
    // POST /posts claims its key in the post's own transaction: before it, nothing is written at all.
    await crashAfter(db, "findIdempotentRequest", "try-again", body);

    const server = await restart(db);
    const retry = await keyedPost(server.url, TEST_KEY, "try-again", body);
    expect(retry).toMatchObject({
      status: 201,
      replayed: null,
      body: { caption: "Try again", status: "published" },
    });
    expect(await postIds(server)).toEqual([retry.body.id]);
    expect(await keyedPost(server.url, TEST_KEY, "try-again", body)).toEqual({ ...retry, replayed: "true" });
  });
});
