import { defineProject } from "vitest/config";

/*
 * The server's tests against PostgreSQL: one throwaway cluster for the run (test/postgres/support/
 * global-setup.ts), a database per suite. A project of its own so that the other server tests do not
 * wait for a cluster to start.
 */
export default defineProject({
  test: {
    name: "server-postgres",
    include: ["test/postgres/**/*.test.ts"],
    globalSetup: ["./test/postgres/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
