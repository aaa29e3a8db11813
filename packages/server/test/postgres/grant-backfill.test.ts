import { describe, it } from "vitest";
import { openPostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { grantBackfillCase } from "../support/grant-backfill-case.ts";
import { newDatabase } from "./support/databases.ts";

describe("accounts connected before their grant's end was kept, on PostgreSQL", () => {
  it("a start reads the end from the sealed credentials, and the account turns expiring on its own", async () => {
    const store = await openPostgresStore(await newDatabase("backfill"), { poolSize: 3 });
    try {
      await grantBackfillCase(store);
    } finally {
      await store.close();
    }
  }, 60_000);
});
