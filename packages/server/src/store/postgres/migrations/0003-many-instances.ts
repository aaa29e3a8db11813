import type { Migration } from "../../migrations/types.ts";

/*
 * What several instances need beyond the first schema: a lease on each claimed post (an instance that
 * dies while publishing leaves a lease that runs out, and another instance claims the post again), and
 * the rate limit's windows, counted here so the limit per key holds across instances.
 */
export const manyInstances: Migration = {
  version: 3,
  name: "many-instances",
  sql: `
ALTER TABLE posts ADD COLUMN lease_until bigint;
DROP INDEX posts_publishing;
CREATE INDEX posts_leases ON posts (lease_until) WHERE status = 'publishing';

CREATE TABLE rate_windows (
  key_id       text NOT NULL,
  window_start bigint NOT NULL,
  requests     integer NOT NULL,
  PRIMARY KEY (key_id, window_start)
);
CREATE INDEX rate_windows_by_start ON rate_windows (window_start);
`,
};
