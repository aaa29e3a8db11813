import type { Migration } from "../../migrations/types.ts";

/*
 * Live publishing, as SQLite's migration 6: accounts are kept per (user, mode, network) with sealed
 * credentials (existing ones are sandbox accounts), posts remember their mode, and targets keep where
 * publishing stands and when their figures are read next. Flags are integers 0/1, as in SQLite, so
 * both stores share their row mappers.
 */
export const livePublishing: Migration = {
  version: 2,
  name: "live-publishing",
  sql: `
ALTER TABLE accounts ADD COLUMN mode text NOT NULL DEFAULT 'test';
ALTER TABLE accounts ADD COLUMN credentials text;
ALTER TABLE accounts DROP CONSTRAINT accounts_pkey;
ALTER TABLE accounts ADD PRIMARY KEY (user_id, mode, platform);

ALTER TABLE posts ADD COLUMN mode text NOT NULL DEFAULT 'test';

ALTER TABLE targets ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE targets ADD COLUMN attempted_at bigint;
ALTER TABLE targets ADD COLUMN in_flight integer NOT NULL DEFAULT 0;
ALTER TABLE targets ADD COLUMN outcome_unknown integer NOT NULL DEFAULT 0;
ALTER TABLE targets ADD COLUMN next_attempt_at bigint;
ALTER TABLE targets ADD COLUMN remote_id text;
ALTER TABLE targets ADD COLUMN metrics_due_at bigint;
ALTER TABLE targets ADD COLUMN metrics_reads integer NOT NULL DEFAULT 0;
CREATE INDEX targets_attempt_due ON targets (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX targets_in_flight ON targets (attempted_at) WHERE in_flight = 1;
CREATE INDEX targets_metrics_due ON targets (metrics_due_at) WHERE metrics_due_at IS NOT NULL;
CREATE INDEX targets_by_platform_attempted ON targets (platform, attempted_at) WHERE attempted_at IS NOT NULL;
`,
};
