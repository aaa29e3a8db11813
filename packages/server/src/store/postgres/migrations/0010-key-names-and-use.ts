import type { Migration } from "../../migrations/types.ts";

/** A key's name and when it last authenticated a call, to the minute, as SQLite's migration 14. */
export const keyNamesAndUse: Migration = {
  version: 10,
  name: "key-names-and-use",
  sql: `
ALTER TABLE api_keys ADD COLUMN name text;
ALTER TABLE api_keys ADD COLUMN last_used_at bigint;
`,
};
