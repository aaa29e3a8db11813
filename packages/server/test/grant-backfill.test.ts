import { describe, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { grantBackfillCase } from "./support/grant-backfill-case.ts";
import { tempDir } from "./support/temp-dir.ts";

describe("accounts connected before their grant's end was kept, on SQLite", () => {
  it("a start reads the end from the sealed credentials, and the account turns expiring on its own", async () => {
    const dir = tempDir();
    const store = openSqliteStore(dir.file("grants.db"));
    try {
      await grantBackfillCase(store);
    } finally {
      await store.close();
      dir.remove();
    }
  }, 30_000);
});
