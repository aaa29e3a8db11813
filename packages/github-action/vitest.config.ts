import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "github-action",
    include: ["test/**/*.test.ts"],
  },
});
