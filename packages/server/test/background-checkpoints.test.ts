import { statSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { setTimeout as sleep } from "node:timers/promises";
import { newId, type PostRecord } from "@socialpub/core";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { tempDir } from "./support/temp-dir.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

const T0 = Date.UTC(2026, 5, 15, 12);
const draft = (id: string): PostRecord => ({
  id,
  user_id: "usr_1",
  mode: "test",
  caption: "a caption long enough to fill pages ".repeat(20),
  platforms: ["x"],
  status: "draft",
  media: null,
  scheduled_at: null,
  published_at: null,
  created_at: T0,
});

/** Polls until `check` holds (the background thread works on its own schedule), failing after 10 s. */
async function eventually(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 50) {
    if (waited > 10_000) throw new Error("the condition never held");
    await sleep(50);
  }
}

describe("WAL checkpoints in the background", () => {
  it("commits reach the database file without a checkpoint on the writing connection, and survive a reopen", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const path = dir.file("store.db");
    const store = openSqliteStore(path, { checkpointInBackground: true });
    const before = statSync(path).size;
    const ids = Array.from({ length: 100 }, () => newId("post", T0));
    // 100 posts of ~700 bytes, one commit each: some 600 WAL frames, below the 1 000 at which the
    // writing connection would checkpoint by itself. Until a checkpoint, the database file does not grow.
    for (const id of ids) await store.insertPost(draft(id), []);
    await eventually(() => statSync(path).size > before + 40 * 1024);
    await store.close();

    const reopened = openSqliteStore(path);
    expect((await reopened.listPosts("usr_1", { limit: 1000 })).length).toBe(100);
    await reopened.close();
    // Closed cleanly: the last connection checkpointed everything and removed the WAL.
    const db = new DatabaseSync(path);
    expect(db.prepare("PRAGMA wal_checkpoint(PASSIVE)").get()).toMatchObject({ busy: 0 });
    db.close();
  });

  it("close() stops the thread, and a store without the option checkpoints as SQLite does by default", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const path = dir.file("store.db");
    const store = openSqliteStore(path);
    await store.insertPost(draft(newId("post", T0)), []);
    await store.close();
    const background = openSqliteStore(path, { checkpointInBackground: true });
    await background.close();
    await background.close();
    const reopened = openSqliteStore(path);
    expect((await reopened.listPosts("usr_1", { limit: 10 })).length).toBe(1);
    await reopened.close();
  });
});
