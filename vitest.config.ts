import { defineConfig } from "vitest/config";

// One run over every package: each package keeps its own vitest config next to its code.
export default defineConfig({
  test: {
    // One bound on the child processes tests start, shared by every project and worker (docs/testing.md).
    globalSetup: ["test-support/process-slots-setup.ts"],
    projects: [
      "packages/*",
      "packages/server/vitest.postgres.config.ts",
      "examples/*/vitest.config.ts",
      "reliability",
      "reliability/vitest.postgres.config.ts",
      "reliability/vitest.live.config.ts",
    ],
  },
});
