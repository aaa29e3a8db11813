import { describeServiceConformance } from "@socialpub/core/testing";
import { openSqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { httpTarget } from "./support/http-target.ts";
import { tempDir } from "./support/temp-dir.ts";

describeServiceConformance("SQLite file store over HTTP", () => {
  const dir = tempDir();
  return httpTarget(openSqliteStore(dir.file("service.db")), dir.file("media"), dir.remove);
});
