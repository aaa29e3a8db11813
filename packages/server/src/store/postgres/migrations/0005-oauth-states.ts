import type { Migration } from "../../migrations/types.ts";

/** OAuth connects under way, as SQLite's migration 8: single-use states keyed by their SHA-256. */
export const oauthStates: Migration = {
  version: 5,
  name: "oauth-states",
  sql: `
CREATE TABLE oauth_states (
  state_hash text PRIMARY KEY,
  user_id    text NOT NULL,
  platform   text NOT NULL,
  secret     text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX oauth_states_expiry ON oauth_states (expires_at);
`,
};
