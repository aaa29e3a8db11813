import type { Migration } from "./types.ts";

/**
 * How far a publish in several steps got (a network's media container, made and then published), kept
 * on the target so a restart resumes from it and a retry never publishes twice. Not shown by any
 * page, so it leaves the posts version alone.
 */
export const publishSteps: Migration = {
  version: 10,
  name: "publish-steps",
  sql: `
ALTER TABLE targets ADD COLUMN publish_step TEXT;
`,
};
