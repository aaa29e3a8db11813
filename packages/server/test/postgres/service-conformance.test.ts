import { createService, silentLogger } from "@socialpub/core";
import { describeServiceConformance, FakeClock } from "@socialpub/core/testing";
import { afterAll, beforeAll } from "vitest";
import { openPostgresStore, type PostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { httpTarget } from "../support/http-target.ts";
import { tempDir } from "../support/temp-dir.ts";
import { emptyDatabase, newDatabase, reusedStore } from "./support/databases.ts";

let url: string;
let store: PostgresStore;
beforeAll(async () => {
  url = await newDatabase("service");
  store = await openPostgresStore(url, { poolSize: 8 });
});
afterAll(() => store.close());

async function freshStore(): Promise<PostgresStore> {
  await emptyDatabase(url);
  return reusedStore(store);
}

describeServiceConformance("PostgreSQL store, in-process", async () => {
  const store = await freshStore();
  const clock = new FakeClock();
  const service = createService({ store, clock, logger: silentLogger, allowPrivateWebhookUrls: true });
  await service.start();
  return {
    fetch: (request) => service.fetch(request),
    store,
    clock,
    close: () => service.close(),
  };
});

describeServiceConformance("PostgreSQL store over HTTP", async () => {
  const dir = tempDir();
  return httpTarget(await freshStore(), dir.file("media"), dir.remove);
});
