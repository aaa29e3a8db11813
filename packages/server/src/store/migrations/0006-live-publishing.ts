import type { Migration } from "./types.ts";

/*
 * Live publishing. Accounts gain a mode (a user has a sandbox and a live account per network) and
 * sealed credentials, so the table is rebuilt with (user_id, mode, platform) as its key; accounts that
 * existed are sandbox ones. Posts remember their mode. Targets keep where publishing stands (attempts,
 * in flight, outcome unknown, next attempt, the network's id) and when their figures are read next.
 */
export const livePublishing: Migration = {
  version: 6,
  name: "live-publishing",
  sql: `
CREATE TABLE accounts_by_mode (
  user_id      TEXT NOT NULL,
  mode         TEXT NOT NULL,
  platform     TEXT NOT NULL,
  handle       TEXT NOT NULL,
  followers    INTEGER NOT NULL,
  health       TEXT NOT NULL,
  connected_at INTEGER NOT NULL,
  credentials  TEXT,
  PRIMARY KEY (user_id, mode, platform)
) STRICT;
INSERT INTO accounts_by_mode (user_id, mode, platform, handle, followers, health, connected_at)
  SELECT user_id, 'test', platform, handle, followers, health, connected_at FROM accounts ORDER BY rowid;
DROP TABLE accounts;
ALTER TABLE accounts_by_mode RENAME TO accounts;

ALTER TABLE posts ADD COLUMN mode TEXT NOT NULL DEFAULT 'test';

ALTER TABLE targets ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE targets ADD COLUMN attempted_at INTEGER;
ALTER TABLE targets ADD COLUMN in_flight INTEGER NOT NULL DEFAULT 0;
ALTER TABLE targets ADD COLUMN outcome_unknown INTEGER NOT NULL DEFAULT 0;
ALTER TABLE targets ADD COLUMN next_attempt_at INTEGER;
ALTER TABLE targets ADD COLUMN remote_id TEXT;
ALTER TABLE targets ADD COLUMN metrics_due_at INTEGER;
ALTER TABLE targets ADD COLUMN metrics_reads INTEGER NOT NULL DEFAULT 0;
CREATE INDEX targets_attempt_due ON targets (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX targets_in_flight ON targets (attempted_at) WHERE in_flight = 1;
CREATE INDEX targets_metrics_due ON targets (metrics_due_at) WHERE metrics_due_at IS NOT NULL;
CREATE INDEX targets_by_platform_attempted ON targets (platform, attempted_at) WHERE attempted_at IS NOT NULL;
`,
};
