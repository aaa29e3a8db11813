import type { Migration } from "./types.ts";

/**
 * When a live account's grant ends, for grants we cannot refresh (null otherwise): kept beside the
 * sealed credentials so the sweep that turns such accounts `expiring`, then `reauth_required`, finds
 * them across users without opening any credentials. The index holds only those accounts.
 */
export const grantEnds: Migration = {
  version: 11,
  name: "grant-ends",
  sql: `
ALTER TABLE accounts ADD COLUMN grant_ends_at INTEGER;
CREATE INDEX accounts_grant_ends ON accounts (grant_ends_at) WHERE grant_ends_at IS NOT NULL;
`,
};
