import type { Migration } from "../../migrations/types.ts";

/**
 * A version of each user's posts, as SQLite's migration 9: triggers move it in the transaction of every
 * change to a post or to its targets' metrics, on whichever instance, and `authorizeCall` reads it in
 * its one statement. The row lock on the user orders concurrent changes, so the version a reader sees
 * always belongs to every change committed before it (a sequence would not: its numbers are handed out
 * before commit, in a different order).
 */
export const postsVersion: Migration = {
  version: 6,
  name: "posts-version",
  sql: `
ALTER TABLE users ADD COLUMN posts_version bigint NOT NULL DEFAULT 0;
CREATE FUNCTION bump_posts_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'posts' THEN
    UPDATE users SET posts_version = posts_version + 1
    WHERE id IN (
      SELECT user_id FROM (SELECT OLD.user_id AS user_id UNION SELECT NEW.user_id) changed
      WHERE user_id IS NOT NULL
    );
  ELSE
    UPDATE users SET posts_version = posts_version + 1
    WHERE id IN (
      SELECT p.user_id FROM posts p
      WHERE p.id IN (
        SELECT post_id FROM (SELECT OLD.post_id AS post_id UNION SELECT NEW.post_id) changed
        WHERE post_id IS NOT NULL
      )
    );
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER posts_version_on_posts AFTER INSERT OR UPDATE OR DELETE ON posts
  FOR EACH ROW EXECUTE FUNCTION bump_posts_version();
CREATE TRIGGER posts_version_on_targets AFTER INSERT OR DELETE OR UPDATE OF reach, likes, comments, shares, post_id
  ON targets FOR EACH ROW EXECUTE FUNCTION bump_posts_version();
`,
};
