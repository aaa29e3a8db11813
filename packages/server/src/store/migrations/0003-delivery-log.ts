import type { Migration } from "./types.ts";

/*
 * The delivery log the API lists (GET /webhooks/{id}/attempts): each attempt gets its own id, ordered
 * by time, and remembers when its delivery was due again. SQLite cannot add a NOT NULL column without a
 * default, so the table is rebuilt; attempts recorded before this version get an id from their time
 * and rowid, which sorts them before any attempt made afterwards.
 */
export const deliveryLog: Migration = {
  version: 3,
  name: "delivery-log",
  sql: `
CREATE TABLE delivery_attempts_v3 (
  id              TEXT PRIMARY KEY,
  delivery_id     TEXT NOT NULL,
  attempt         INTEGER NOT NULL,
  webhook_id      TEXT NOT NULL,
  event_id        TEXT NOT NULL,
  at              INTEGER NOT NULL,
  response_status INTEGER,
  duration_ms     REAL NOT NULL,
  error           TEXT,
  next_attempt_at INTEGER
) STRICT;
INSERT INTO delivery_attempts_v3 (id, delivery_id, attempt, webhook_id, event_id, at, response_status,
                                  duration_ms, error, next_attempt_at)
  SELECT 'att_0' || printf('%015d', at) || printf('%010d', rowid), delivery_id, attempt, webhook_id,
         event_id, at, response_status, duration_ms, error, NULL
  FROM delivery_attempts;
DROP TABLE delivery_attempts;
ALTER TABLE delivery_attempts_v3 RENAME TO delivery_attempts;
CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts (delivery_id, attempt);
CREATE INDEX delivery_attempts_by_webhook ON delivery_attempts (webhook_id, id);
CREATE INDEX deliveries_by_event ON deliveries (event_id);
`,
};
