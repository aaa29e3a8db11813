import type { Migration } from "../../migrations/types.ts";

/** When a grant we cannot refresh ends, kept on its account, as SQLite's migration 11. */
export const grantEnds: Migration = {
  version: 8,
  name: "grant-ends",
  sql: `
ALTER TABLE accounts ADD COLUMN grant_ends_at bigint;
CREATE INDEX accounts_grant_ends ON accounts (grant_ends_at) WHERE grant_ends_at IS NOT NULL;
`,
};
