import type { Migration } from "./types.ts";

/*
 * The first schema. Lists that the service reads back whole (a post's platforms, a webhook's events, an
 * event's data) are JSON text; everything that is filtered or ordered on has its own column and index.
 *
 * Children are removed explicitly by the store rather than through foreign keys, so the SQLite store
 * accepts exactly what the in-memory store accepts (a record may name a user the store does not hold).
 */
export const initial: Migration = {
  version: 1,
  name: "initial",
  sql: `
CREATE TABLE users (
  id         TEXT PRIMARY KEY,
  email      TEXT NOT NULL UNIQUE,
  name       TEXT NOT NULL,
  studio     TEXT NOT NULL,
  plan       TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE api_keys (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL,
  hash       TEXT NOT NULL UNIQUE,
  mode       TEXT NOT NULL,
  hint       TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;
CREATE INDEX api_keys_by_user ON api_keys (user_id, created_at);

CREATE TABLE api_usage (
  user_id TEXT NOT NULL,
  month   TEXT NOT NULL,
  calls   INTEGER NOT NULL,
  PRIMARY KEY (user_id, month)
) STRICT, WITHOUT ROWID;

CREATE TABLE accounts (
  user_id      TEXT NOT NULL,
  platform     TEXT NOT NULL,
  handle       TEXT NOT NULL,
  followers    INTEGER NOT NULL,
  health       TEXT NOT NULL,
  connected_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, platform)
) STRICT;

CREATE TABLE posts (
  id           TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL,
  caption      TEXT NOT NULL,
  platforms    TEXT NOT NULL,
  status       TEXT NOT NULL,
  media        TEXT,
  scheduled_at INTEGER,
  published_at INTEGER,
  created_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX posts_by_user ON posts (user_id, id);
CREATE INDEX posts_by_user_created ON posts (user_id, created_at);
CREATE INDEX posts_due ON posts (scheduled_at, id) WHERE status = 'scheduled';
CREATE INDEX posts_publishing ON posts (status) WHERE status = 'publishing';

-- Every post ever created, deleted ones included: deleting a post does not give back its place in the
-- month's allowance.
CREATE TABLE post_creations (
  user_id    TEXT NOT NULL,
  post_id    TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX post_creations_by_user ON post_creations (user_id, created_at);

CREATE TABLE targets (
  post_id      TEXT NOT NULL,
  platform     TEXT NOT NULL,
  position     INTEGER NOT NULL,
  status       TEXT NOT NULL,
  text         TEXT NOT NULL,
  permalink    TEXT,
  error        TEXT,
  published_at INTEGER,
  reach        INTEGER NOT NULL,
  likes        INTEGER NOT NULL,
  comments     INTEGER NOT NULL,
  shares       INTEGER NOT NULL,
  PRIMARY KEY (post_id, platform)
) STRICT, WITHOUT ROWID;

CREATE TABLE webhooks (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL,
  url        TEXT NOT NULL,
  events     TEXT NOT NULL,
  secret     TEXT NOT NULL,
  status     TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX webhooks_by_user ON webhooks (user_id, created_at);

CREATE TABLE events (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL,
  type       TEXT NOT NULL,
  created    INTEGER NOT NULL,
  data       TEXT NOT NULL,
  webhook_id TEXT
) STRICT;
CREATE INDEX events_by_user ON events (user_id);

CREATE TABLE deliveries (
  id              TEXT PRIMARY KEY,
  event_id        TEXT NOT NULL,
  webhook_id      TEXT NOT NULL,
  state           TEXT NOT NULL,
  attempts        INTEGER NOT NULL,
  next_attempt_at INTEGER,
  created_at      INTEGER NOT NULL
) STRICT;
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX deliveries_by_webhook ON deliveries (webhook_id);

CREATE TABLE delivery_attempts (
  delivery_id     TEXT NOT NULL,
  attempt         INTEGER NOT NULL,
  webhook_id      TEXT NOT NULL,
  event_id        TEXT NOT NULL,
  at              INTEGER NOT NULL,
  response_status INTEGER,
  duration_ms     REAL NOT NULL,
  error           TEXT
) STRICT;
CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts (delivery_id, attempt);
CREATE INDEX delivery_attempts_by_webhook ON delivery_attempts (webhook_id, at);

CREATE TABLE media (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL,
  url        TEXT NOT NULL,
  type       TEXT NOT NULL,
  size       INTEGER NOT NULL,
  status     TEXT NOT NULL,
  path       TEXT,
  created_at INTEGER NOT NULL
) STRICT;
`,
};
