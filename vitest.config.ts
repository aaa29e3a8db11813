import { defineConfig } from "vitest/config";

// One run over every package: each package keeps its own vitest config next to its code.
export default defineConfig({
  test: {
    projects: [
      "packages/*",
      "packages/server/vitest.postgres.config.ts",
      "examples/*/vitest.config.ts",
      "reliability",
    ],
  },
});
