import { defineProject } from "vitest/config";
import { skipWithoutPostgres } from "../packages/server/test/postgres/support/without-postgres.ts";

/*
 * The reliability suite again, every scenario on the PostgreSQL store: one throwaway cluster for the
 * run (the server's PostgreSQL tests' global setup), a database per server. A project of its own so it
 * prints its own totals and the SQLite run does not wait for a cluster. Skipped, saying why, where
 * there is no PostgreSQL (outside CI).
 */
const skip = skipWithoutPostgres("reliability-postgres");

export default defineProject({
  test: {
    name: "reliability-postgres",
    include: ["test/**/*.test.ts"],
    provide: { reliabilityStore: "postgres" },
    globalSetup: [
      ...(skip ? [] : ["../packages/server/test/postgres/support/global-setup.ts"]),
      "./support/figures-setup.ts",
    ],
    ...skip,
    testTimeout: 240_000,
    hookTimeout: 60_000,
  },
});
