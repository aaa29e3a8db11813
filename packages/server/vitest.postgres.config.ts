import { defineProject } from "vitest/config";
import { skipWithoutPostgres } from "./test/postgres/support/without-postgres.ts";

/*
 * The server's tests against PostgreSQL: one throwaway cluster for the run (test/postgres/support/
 * global-setup.ts), a database per suite. A project of its own so that the other server tests do not
 * wait for a cluster to start. Skipped, saying why, where there is no PostgreSQL (outside CI).
 */
const skip = skipWithoutPostgres("server-postgres");

export default defineProject({
  test: {
    name: "server-postgres",
    include: ["test/postgres/**/*.test.ts"],
    globalSetup: skip ? [] : ["./test/postgres/support/global-setup.ts"],
    ...skip,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
