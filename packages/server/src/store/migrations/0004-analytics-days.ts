import type { Migration } from "./types.ts";

/*
 * The last UTC day whose analytics.daily was settled, per user: written in the same transaction as the
 * day's event, so a restart writes the days that ended while the server was down, and a crash between
 * users neither loses one user's event nor writes another's twice.
 */
export const analyticsDays: Migration = {
  version: 4,
  name: "analytics-days",
  sql: `
CREATE TABLE analytics_days (
  user_id   TEXT PRIMARY KEY,
  last_date TEXT NOT NULL
) STRICT, WITHOUT ROWID;
`,
};
