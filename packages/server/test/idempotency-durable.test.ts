import { provisionUser } from "@socialpub/core";
import { FakeClock } from "@socialpub/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../src/logging.ts";
import { startServer } from "../src/server.ts";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import { api, type ServerProcess, startServerProcess, TEST_KEY } from "./support/cli-process.ts";
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
