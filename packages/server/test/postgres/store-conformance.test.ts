import { describeStoreConformance } from "@socialpub/core/testing";
import { afterAll, beforeAll } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { emptyDatabase, newDatabase, reusedStore } from "./support/databases.ts";

let url: string;
let store: PostgresStore;
beforeAll(async () => {
  url = await newDatabase("store");
  store = await openPostgresStore(url, { poolSize: 6 });
});
afterAll(() => store.close());

describeStoreConformance("PostgreSQL", async () => {
  await emptyDatabase(url);
  return reusedStore(store);
});
