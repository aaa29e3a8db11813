import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "example-client",
    include: ["test/**/*.test.ts"],
  },
});
