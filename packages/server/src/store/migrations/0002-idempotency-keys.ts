import type { Migration } from "./types.ts";

/** Requests made with an Idempotency-Key: the claim while in flight, then the response to replay. */
export const idempotencyKeys: Migration = {
  version: 2,
  name: "idempotency-keys",
  sql: `
CREATE TABLE idempotency_keys (
  user_id     TEXT NOT NULL,
  key         TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status      INTEGER,
  body        TEXT,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  PRIMARY KEY (user_id, key)
) STRICT, WITHOUT ROWID;
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
`,
};
