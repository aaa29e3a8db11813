import { afterEach, describe } from "vitest";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { tempDir } from "./support/temp-dir.ts";
import { threadKillCases } from "./support/thread-kill-case.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

describe("a thread in progress survives kill -9, on SQLite", () => {
  threadKillCases({
    database: async () => {
      const dir = tempDir();
      dirs.push(dir);
      return dir.file("store.db");
    },
    open: async (database) => openSqliteStore(database),
  });
});
