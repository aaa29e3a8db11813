import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "github-action",
    include: ["test/**/*.test.ts"],
    // The dist tests start `node dist/index.js` (and a reference server) per step; on a busy two-core
    // machine one start can take seconds.
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
