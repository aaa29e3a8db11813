import { afterEach, describe } from "vitest";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { resealCases } from "./support/reseal-cases.ts";
import { tempDir } from "./support/temp-dir.ts";

const opened: { store: SqliteStore; dir: ReturnType<typeof tempDir> }[] = [];
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    dir.remove();
  }
});

describe("secrets reseal on SQLite", () => {
  resealCases(async () => {
    const dir = tempDir();
    const db = dir.file("reseal.db");
    const store = openSqliteStore(db);
    opened.push({ store, dir });
    return { db, store };
  });
});
