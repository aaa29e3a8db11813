import { describe } from "vitest";
import { openPostgresStore } from "../../src/store/postgres/postgres-store.ts";
import { threadKillCases } from "../support/thread-kill-case.ts";
import { newDatabase } from "./support/databases.ts";

describe("a thread in progress survives kill -9, on PostgreSQL", () => {
  threadKillCases({
    database: () => newDatabase("thread"),
    open: (url) => openPostgresStore(url, { poolSize: 2 }),
  });
});
