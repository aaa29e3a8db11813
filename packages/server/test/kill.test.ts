import { describe, expect, it } from "vitest";
import { api, TEST_KEY } from "./support/cli-process.ts";
import { useDevServers } from "./support/dev-servers.ts";

const { start, databaseFile } = useDevServers();

describe("kill -9", () => {
  it("every post answered 201 before the kill is there after a restart", async () => {
    const db = databaseFile("kill.db");
    let server = await start(db);

    const acknowledged = new Map<string, { caption: string; status: string }>();
    let sent = 0;
    let killed = false;
    // Eight clients post without pause; the process is killed once 60 posts are acknowledged, while
    // others are in flight.
    const client = async () => {
      while (!killed) {
        const n = sent++;
        const body =
          n % 3 === 0
            ? { caption: `burst ${n}`, platforms: ["x"], schedule_at: Date.now() + 3_600_000 }
            : { caption: `burst ${n}`, platforms: ["x", "bluesky"] };
        try {
          const res = await api(server, TEST_KEY, "POST", "/posts", body);
          if (res.status === 201)
            acknowledged.set(res.body.id, { caption: body.caption, status: res.body.status });
        } catch {
          // In flight when the process died: never acknowledged, so nothing is owed.
        }
        if (acknowledged.size >= 60 && !killed) {
          killed = true;
          server.child.kill("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    expect(await server.stop()).toBe("SIGKILL");
    expect(acknowledged.size).toBeGreaterThanOrEqual(60);

    server = await start(db);
    for (const [id, { caption, status }] of acknowledged) {
      const res = await api(server, TEST_KEY, "GET", `/posts/${id}`);
      expect(res.status, `post ${id} answered 201 before the kill`).toBe(200);
      expect(res.body.caption).toBe(caption);
      expect(res.body.status).toBe(status);
    }
  });
});
