import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { api, type ServerProcess, TEST_KEY } from "./support/cli-process.ts";
import { useDevServers } from "./support/dev-servers.ts";

const { start, databaseFile } = useDevServers();

/**
 * Moves the posts' due time into the past while no server runs: what a stop that outlasts their due
 * time looks like, without the test depending on how long starting and stopping take on a busy machine.
 */
function fallDueWhileDown(db: string, ids: readonly string[], at: number): void {
  const sqlite = new DatabaseSync(db);
  try {
    const move = sqlite.prepare("UPDATE posts SET scheduled_at = ? WHERE id = ? AND status = 'scheduled'");
    for (const id of ids) expect(move.run(at, id).changes).toBe(1);
  } finally {
    sqlite.close();
  }
}

async function waitForStatus(server: ServerProcess, id: string, status: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await api(server, TEST_KEY, "GET", `/posts/${id}`);
    if (res.body?.status === status || Date.now() > deadline) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** post.published events per post id, read from the database's outbox. */
async function publishedEvents(db: string): Promise<Map<string, string[]>> {
  const store = openSqliteStore(db);
  try {
    const [user] = await store.listUsers();
    const byPost = new Map<string, string[]>();
    for (const event of await store.listEvents(user!.id)) {
      if (event.type !== "post.published") continue;
      const data = event.data as { post_id: string; platform: string };
      byPost.set(data.post_id, [...(byPost.get(data.post_id) ?? []), data.platform]);
    }
    return byPost;
  } finally {
    await store.close();
  }
}

describe("restart", () => {
  it("posts that fell due while the server was down publish once, right after it starts", async () => {
    const db = databaseFile("restart.db");

    let server = await start(db);
    const due = Date.now() + 3_600_000;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api(server, TEST_KEY, "POST", "/posts", {
        caption: `due while down ${i}`,
        platforms: ["x", "bluesky"],
        schedule_at: due,
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const later = await api(server, TEST_KEY, "POST", "/posts", {
      caption: "due in an hour",
      platforms: ["x"],
      schedule_at: Date.now() + 3_600_000,
    });
    expect(await server.stop("SIGTERM")).toBe(0);

    // Nothing published while the server was stopping.
    expect((await publishedEvents(db)).size).toBe(0);
    fallDueWhileDown(db, ids, Date.now() - 1000);

    const restartedAt = Date.now();
    server = await start(db);
    for (const id of ids) {
      const post = await waitForStatus(server, id, "published");
      expect(post.status).toBe("published");
      expect(post.published_at).toBeGreaterThanOrEqual(restartedAt);
    }
    expect((await api(server, TEST_KEY, "GET", `/posts/${later.body.id}`)).body.status).toBe("scheduled");

    // A further restart publishes nothing again.
    expect(await server.stop("SIGTERM")).toBe(0);
    server = await start(db);
    expect(await server.stop("SIGTERM")).toBe(0);

    const events = await publishedEvents(db);
    expect([...events.keys()].sort()).toEqual([...ids].sort());
    for (const id of ids) expect(events.get(id)!.sort()).toEqual(["bluesky", "x"]);
  });
});
