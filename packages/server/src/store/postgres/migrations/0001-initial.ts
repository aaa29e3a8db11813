import type { Migration } from "../../migrations/types.ts";

/*
 * The first PostgreSQL schema: the SQLite store's tables as they stand at its version 5, with the
 * columns that several instances need. Times are Unix milliseconds in bigint; lists read back whole
 * (a post's platforms, a webhook's events, an event's data) are JSON text, as in SQLite, so both
 * stores map rows the same way. `seq` columns keep insertion order where SQLite reads its rowid.
 * Children are removed by the store, not by foreign keys, so this store accepts what the others accept.
 */
export const initial: Migration = {
  version: 1,
  name: "initial",
  sql: `
CREATE TABLE users (
  id         text PRIMARY KEY,
  email      text NOT NULL UNIQUE,
  name       text NOT NULL,
  studio     text NOT NULL,
  plan       text NOT NULL,
  created_at bigint NOT NULL
);

CREATE TABLE api_keys (
  seq        bigserial NOT NULL,
  id         text PRIMARY KEY,
  user_id    text NOT NULL,
  hash       text NOT NULL UNIQUE,
  mode       text NOT NULL,
  hint       text NOT NULL,
  created_at bigint NOT NULL,
  revoked_at bigint
);
CREATE INDEX api_keys_by_user ON api_keys (user_id, seq);

CREATE TABLE api_usage (
  user_id text NOT NULL,
  month   text NOT NULL,
  calls   bigint NOT NULL,
  PRIMARY KEY (user_id, month)
);

CREATE TABLE accounts (
  seq          bigserial NOT NULL,
  user_id      text NOT NULL,
  platform     text NOT NULL,
  handle       text NOT NULL,
  followers    bigint NOT NULL,
  health       text NOT NULL,
  connected_at bigint NOT NULL,
  PRIMARY KEY (user_id, platform)
);

CREATE TABLE posts (
  id           text PRIMARY KEY,
  user_id      text NOT NULL,
  caption      text NOT NULL,
  platforms    text NOT NULL,
  status       text NOT NULL,
  media        text,
  scheduled_at bigint,
  published_at bigint,
  created_at   bigint NOT NULL
);
CREATE INDEX posts_by_user ON posts (user_id, id);
CREATE INDEX posts_due ON posts (scheduled_at, id) WHERE status = 'scheduled';
CREATE INDEX posts_publishing ON posts (id) WHERE status = 'publishing';

-- Every post ever created, deleted ones included: deleting a post does not give back its place in the
-- month's allowance.
CREATE TABLE post_creations (
  user_id    text NOT NULL,
  post_id    text NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX post_creations_by_user ON post_creations (user_id, created_at);

CREATE TABLE targets (
  post_id      text NOT NULL,
  platform     text NOT NULL,
  position     integer NOT NULL,
  status       text NOT NULL,
  text         text NOT NULL,
  permalink    text,
  error        text,
  published_at bigint,
  reach        bigint NOT NULL,
  likes        bigint NOT NULL,
  comments     bigint NOT NULL,
  shares       bigint NOT NULL,
  PRIMARY KEY (post_id, platform)
);

CREATE TABLE webhooks (
  id         text PRIMARY KEY,
  user_id    text NOT NULL,
  url        text NOT NULL,
  events     text NOT NULL,
  secret     text NOT NULL,
  status     text NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX webhooks_by_user ON webhooks (user_id, created_at);

CREATE TABLE events (
  seq        bigserial NOT NULL,
  id         text PRIMARY KEY,
  user_id    text NOT NULL,
  type       text NOT NULL,
  created    bigint NOT NULL,
  data       text NOT NULL,
  webhook_id text
);
CREATE INDEX events_by_user ON events (user_id, seq);
CREATE INDEX events_by_created ON events (created);

CREATE TABLE deliveries (
  seq             bigserial NOT NULL,
  id              text PRIMARY KEY,
  event_id        text NOT NULL,
  webhook_id      text NOT NULL,
  state           text NOT NULL,
  attempts        integer NOT NULL,
  next_attempt_at bigint,
  created_at      bigint NOT NULL
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at, seq) WHERE state = 'pending';
CREATE INDEX deliveries_by_webhook ON deliveries (webhook_id);
CREATE INDEX deliveries_by_event ON deliveries (event_id);

CREATE TABLE delivery_attempts (
  id              text PRIMARY KEY,
  delivery_id     text NOT NULL,
  attempt         integer NOT NULL,
  webhook_id      text NOT NULL,
  event_id        text NOT NULL,
  at              bigint NOT NULL,
  response_status integer,
  duration_ms     double precision NOT NULL,
  error           text,
  next_attempt_at bigint
);
CREATE INDEX delivery_attempts_by_delivery ON delivery_attempts (delivery_id, attempt);
CREATE INDEX delivery_attempts_by_webhook ON delivery_attempts (webhook_id, id);

CREATE TABLE media (
  id         text PRIMARY KEY,
  user_id    text NOT NULL,
  url        text NOT NULL,
  type       text NOT NULL,
  size       bigint NOT NULL,
  status     text NOT NULL,
  path       text,
  created_at bigint NOT NULL
);

-- Requests made with an Idempotency-Key: the claim while in flight, then the answer to replay. The
-- primary key is what makes one of two racing requests the loser, whichever instance each reached.
CREATE TABLE idempotency_keys (
  user_id     text NOT NULL,
  key         text NOT NULL,
  fingerprint text NOT NULL,
  status      integer,
  body        text,
  created_at  bigint NOT NULL,
  expires_at  bigint NOT NULL,
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

CREATE TABLE analytics_days (
  user_id   text PRIMARY KEY,
  last_date text NOT NULL
);
`,
};
