import type { Migration } from "../../migrations/types.ts";

/**
 * The posts version (migration 6) moved at commit instead of at each change, once per user per
 * transaction.
 *
 * Moving it locks the user's row until the transaction ends. Bumped at the first change, that lock was
 * held for all of the transaction's later round trips, so transactions changing posts of one user (a
 * scheduler publishing several of its posts at once, on one instance or several) queued behind each
 * other for the whole of each other's work. As deferred constraint triggers the bumps run as the
 * transaction commits: the lock is held from then to the end of the commit only.
 *
 * Once per user and transaction is enough: a reader sees a transaction's changes and its new version
 * together, at its commit, so one increment covers every change it made. The users already bumped are
 * kept in a setting local to the transaction (`socialpub.versioned`), which the database forgets when
 * the transaction ends.
 */
export const postsVersionAtCommit: Migration = {
  version: 9,
  name: "posts-version-at-commit",
  sql: `
DROP TRIGGER posts_version_on_posts ON posts;
DROP TRIGGER posts_version_on_targets ON targets;
DROP FUNCTION bump_posts_version();
CREATE FUNCTION bump_posts_version_once() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text[];
  done text := coalesce(current_setting('socialpub.versioned', true), '');
  todo text[];
BEGIN
  IF TG_TABLE_NAME = 'posts' THEN
    changed := ARRAY[OLD.user_id, NEW.user_id];
  ELSE
    SELECT array_agg(p.user_id) INTO changed FROM posts p WHERE p.id IN (OLD.post_id, NEW.post_id);
  END IF;
  SELECT array_agg(DISTINCT u) INTO todo FROM unnest(changed) u
  WHERE u IS NOT NULL AND position(',' || u || ',' IN done) = 0;
  IF todo IS NULL THEN
    RETURN NULL;
  END IF;
  UPDATE users SET posts_version = posts_version + 1 WHERE id = ANY(todo);
  PERFORM set_config('socialpub.versioned',
    CASE WHEN done = '' THEN ',' ELSE done END || array_to_string(todo, ',') || ',', true);
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER posts_version_on_posts AFTER INSERT OR UPDATE OR DELETE ON posts
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION bump_posts_version_once();
CREATE CONSTRAINT TRIGGER posts_version_on_targets
  AFTER INSERT OR DELETE OR UPDATE OF reach, likes, comments, shares, post_id ON targets
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION bump_posts_version_once();
`,
};
