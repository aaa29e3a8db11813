import type { Migration } from "../../migrations/types.ts";

/** How far a publish in several steps got, kept on the target, as SQLite's migration 10. */
export const publishSteps: Migration = {
  version: 7,
  name: "publish-steps",
  sql: `
ALTER TABLE targets ADD COLUMN publish_step text;
`,
};
