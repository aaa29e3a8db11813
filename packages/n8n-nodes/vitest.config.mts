import { createRequire } from "node:module";
import { defineProject } from "vitest/config";

const require = createRequire(import.meta.url);

// Tests are .mts files: the package's strict n8n lint checks every .ts file as node code, where
// `process`, timers and Node imports are rightly forbidden, but tests need them.
export default defineProject({
  resolve: {
    // n8n loads nodes with require(), so the nodes meet n8n-workflow's CommonJS build; tests use it too.
    alias: { "n8n-workflow": require.resolve("n8n-workflow") },
  },
  test: {
    name: "n8n-nodes",
    include: ["test/**/*.test.mts"],
    // Some tests start real servers or n8n itself; on a busy two-core machine that takes seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
