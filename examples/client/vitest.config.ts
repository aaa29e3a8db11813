import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "example-client",
    include: ["test/**/*.test.ts"],
    // Each test starts a reference server and runs a script as its own process; on a busy two-core
    // machine a start alone can take seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
