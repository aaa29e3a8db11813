import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "networks",
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // Many tests talk to real local servers (a PDS, fakes, child processes); on a busy two-core
    // machine one start or round trip can take seconds, so the default five seconds is too tight.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
