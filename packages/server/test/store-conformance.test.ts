import { describeStoreConformance } from "@socialpub/core/testing";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { tempDir } from "./support/temp-dir.ts";

describeStoreConformance("SQLite in memory", () => openSqliteStore(":memory:"));

describeStoreConformance("SQLite file", () => {
  const dir = tempDir();
  const store = openSqliteStore(dir.file("store.db"));
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    dir.remove();
  };
  return store;
});
