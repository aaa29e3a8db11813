import type { Migration } from "./types.ts";

/**
 * What the dashboard's Settings → API keys page shows of a key besides its hint: the name the account
 * holder gave it (POST /keys) and when it last authenticated a call, to the minute (the service marks
 * a key used at most once a minute, so a busy key does not write on every call).
 */
export const keyNamesAndUse: Migration = {
  version: 14,
  name: "key-names-and-use",
  sql: `
ALTER TABLE api_keys ADD COLUMN name TEXT;
ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER;
`,
};
