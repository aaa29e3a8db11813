import { afterEach, describe } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { resealCases } from "../support/reseal-cases.ts";
import { newDatabase } from "./support/databases.ts";

const opened: PostgresStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

describe("secrets reseal on PostgreSQL", () => {
  resealCases(async () => {
    const db = await newDatabase("reseal");
    const store = await openPostgresStore(db, { poolSize: 2 });
    opened.push(store);
    return { db, store };
  });
});
