import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "reliability",
    include: ["test/**/*.test.ts"],
    // The same scenarios run on PostgreSQL in vitest.postgres.config.ts.
    provide: { reliabilityStore: "sqlite" },
    // Collects each file's figures and prints the totals once the suite has run.
    globalSetup: ["./support/figures-setup.ts"],
    // Several checks start, kill and restart the server process many times; on a busy two-core
    // machine one start can take seconds.
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});
