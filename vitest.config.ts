import { defineConfig } from "vitest/config";

// One run over every package: each package keeps its own vitest config next to its code.
export default defineConfig({
  test: {
    projects: ["packages/*", "examples/*/vitest.config.ts", "reliability"],
  },
});
