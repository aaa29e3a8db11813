import { provisionUser } from "@socialpub/core";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../src/logging.ts";
import { startServer } from "../src/server.ts";
import { openSqliteStore } from "../src/store/sqlite-store.ts";
import { api } from "./support/cli-process.ts";
import { tempDir } from "./support/temp-dir.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

const sleepUntil = (at: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

describe("DELETE racing the scheduler", () => {
  it("at the due instant, a post is either cancelled and never published, or published and then removed", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = openSqliteStore(dir.file("race.db"));
    const { apiKey, user } = await provisionUser(store, { plan: "studio", accounts: ["x", "bluesky"] });
    const server = await startServer({ port: 0, store, logger: createLogger({ level: "silent" }) });

    const ids: string[] = [];
    for (let round = 0; round < 5; round++) {
      const due = Date.now() + 700;
      const created = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          api(server, apiKey, "POST", "/posts", {
            caption: `race ${round}.${i}`,
            platforms: ["x", "bluesky"],
            schedule_at: due,
          }),
        ),
      );
      const roundIds = created.map((res) => {
        expect(res.status).toBe(201);
        return res.body.id as string;
      });
      // One DELETE every 2 ms, from 16 ms before the due instant to 14 ms after it.
      const deleted = await Promise.all(
        roundIds.map((id, i) =>
          sleepUntil(due - 16 + i * 2).then(() => api(server, apiKey, "DELETE", `/posts/${id}`)),
        ),
      );
      deleted.forEach((res, i) => {
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ deleted: true, id: roundIds[i] });
      });
      ids.push(...roundIds);
    }
    // Closing waits for a scheduler run in progress, so every publish attempt has ended.
    await server.close();

    const events = await store.listEvents(user.id);
    for (const id of ids) {
      const about = events.filter((e) => (e.data as { post_id?: string }).post_id === id);
      const deletions = about.filter((e) => e.type === "post.deleted");
      const published = about.filter((e) => e.type === "post.published");
      expect(deletions).toHaveLength(1);
      const previous = (deletions[0]!.data as { previous_status: string }).previous_status;
      if (previous === "published") {
        expect(published.map((e) => (e.data as { platform: string }).platform).sort()).toEqual([
          "bluesky",
          "x",
        ]);
      } else {
        expect(["scheduled", "publishing"]).toContain(previous);
        expect(published).toEqual([]);
      }
      expect(about.filter((e) => e.type === "post.failed")).toEqual([]);
      expect(await store.getPost(user.id, id)).toBeNull();
    }
    expect(await store.nextDueAt()).toBeNull();
    await store.close();
  });
});
