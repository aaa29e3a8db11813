import type { Migration } from "./types.ts";

/**
 * OAuth connects under way: one row per state handed to a network's authorize page, keyed by the
 * state's SHA-256, taken once by the callback. The index lets each new connect clear expired ones.
 */
export const oauthStates: Migration = {
  version: 8,
  name: "oauth-states",
  sql: `
CREATE TABLE oauth_states (
  state_hash TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL,
  platform   TEXT NOT NULL,
  secret     TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX oauth_states_expiry ON oauth_states (expires_at);
`,
};
