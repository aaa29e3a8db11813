import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "server",
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // Run by vitest.postgres.config.ts, next to the cluster they need.
    exclude: ["test/postgres/**", "**/node_modules/**"],
    // Several tests start the CLI as a child process (and restart it); on a busy two-core machine one
    // start can take seconds.
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
