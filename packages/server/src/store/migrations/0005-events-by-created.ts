import type { Migration } from "./types.ts";

/** Retention reads the outbox oldest first by creation time: an index keeps that to the old events. */
export const eventsByCreated: Migration = {
  version: 5,
  name: "events-by-created",
  sql: `
CREATE INDEX events_by_created ON events (created);
`,
};
