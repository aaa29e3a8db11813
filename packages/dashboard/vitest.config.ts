import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "dashboard",
    include: ["test/**/*.test.ts"],
    // The page is built once before the tests, so the end-to-end test always drives the current source.
    globalSetup: ["test/support/build-once.ts"],
    // The end-to-end test starts the server and a browser on a shared two-core machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
