import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "networks",
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
  },
});
