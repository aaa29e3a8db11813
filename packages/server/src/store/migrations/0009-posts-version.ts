import type { Migration } from "./types.ts";

/**
 * A version of each user's posts, for the cache of serialised list pages (GET /posts): triggers move it
 * in the same transaction as every change to one of the user's posts, and to its targets' metrics, so
 * no write — the service's, an administration command's, another process's — can change a page
 * without changing the version that `authorizeCall` reads with the caller. Target columns the page
 * does not show (attempts, leases) do not move it.
 */
export const postsVersion: Migration = {
  version: 9,
  name: "posts-version",
  sql: `
ALTER TABLE users ADD COLUMN posts_version INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER posts_version_on_insert AFTER INSERT ON posts BEGIN
  UPDATE users SET posts_version = posts_version + 1 WHERE id = NEW.user_id;
END;
CREATE TRIGGER posts_version_on_update AFTER UPDATE ON posts BEGIN
  UPDATE users SET posts_version = posts_version + 1 WHERE id IN (OLD.user_id, NEW.user_id);
END;
CREATE TRIGGER posts_version_on_delete AFTER DELETE ON posts BEGIN
  UPDATE users SET posts_version = posts_version + 1 WHERE id = OLD.user_id;
END;
CREATE TRIGGER posts_version_on_target_insert AFTER INSERT ON targets BEGIN
  UPDATE users SET posts_version = posts_version + 1
  WHERE id = (SELECT user_id FROM posts WHERE id = NEW.post_id);
END;
CREATE TRIGGER posts_version_on_target_metrics AFTER UPDATE OF reach, likes, comments, shares, post_id ON targets
BEGIN
  UPDATE users SET posts_version = posts_version + 1
  WHERE id IN (SELECT user_id FROM posts WHERE id IN (OLD.post_id, NEW.post_id));
END;
CREATE TRIGGER posts_version_on_target_delete AFTER DELETE ON targets BEGIN
  UPDATE users SET posts_version = posts_version + 1
  WHERE id = (SELECT user_id FROM posts WHERE id = OLD.post_id);
END;
`,
};
