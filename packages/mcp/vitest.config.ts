import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "mcp",
    include: ["test/**/*.test.ts"],
    // Tests start a reference server and MCP servers as processes; on a busy machine a start takes seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
