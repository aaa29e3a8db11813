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
 * together, at its commit, so one increment covers every change it made. What a transaction has
 * already covered is kept in a setting local to it (`socialpub.versioned`, which the database forgets
 * when the transaction ends): the users bumped, and the posts whose user was, so a post's targets
 * changed in the same transaction cost no lookup of the post. The functions use no query but that
 * lookup and the bump itself, since each trigger runs once per changed row.
 *
 * A target's update moves the version only when its figures change: the pages kept under the version
 * show a post's summed figures, not its targets' other columns (list-page-cache.ts).
 */
export const postsVersionAtCommit: Migration = {
  version: 9,
  name: "posts-version-at-commit",
  sql: `
DROP TRIGGER posts_version_on_posts ON posts;
DROP TRIGGER posts_version_on_targets ON targets;
DROP FUNCTION bump_posts_version();
CREATE FUNCTION posts_version_on_post() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  done text := coalesce(nullif(current_setting('socialpub.versioned', true), ''), ',');
  uid text;
BEGIN
  FOREACH uid IN ARRAY ARRAY[OLD.user_id, NEW.user_id] LOOP
    CONTINUE WHEN uid IS NULL OR position(',u:' || uid || ',' IN done) > 0;
    UPDATE users SET posts_version = posts_version + 1 WHERE id = uid;
    done := done || 'u:' || uid || ',';
  END LOOP;
  IF OLD.user_id IS NOT DISTINCT FROM NEW.user_id OR OLD.user_id IS NULL OR NEW.user_id IS NULL THEN
    done := done || 'p:' || coalesce(NEW.id, OLD.id) || ',';
  END IF;
  done := set_config('socialpub.versioned', done, true);
  RETURN NULL;
END;
$$;
CREATE FUNCTION posts_version_on_target() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  done text := coalesce(nullif(current_setting('socialpub.versioned', true), ''), ',');
  pid text;
  uid text;
BEGIN
  FOREACH pid IN ARRAY ARRAY[OLD.post_id, NEW.post_id] LOOP
    CONTINUE WHEN pid IS NULL OR position(',p:' || pid || ',' IN done) > 0;
    SELECT user_id INTO uid FROM posts WHERE id = pid;
    IF uid IS NOT NULL AND position(',u:' || uid || ',' IN done) = 0 THEN
      UPDATE users SET posts_version = posts_version + 1 WHERE id = uid;
      done := done || 'u:' || uid || ',';
    END IF;
    done := done || 'p:' || pid || ',';
  END LOOP;
  done := set_config('socialpub.versioned', done, true);
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER posts_version_on_posts AFTER INSERT OR UPDATE OR DELETE ON posts
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION posts_version_on_post();
CREATE CONSTRAINT TRIGGER posts_version_on_targets AFTER INSERT OR DELETE ON targets
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION posts_version_on_target();
CREATE CONSTRAINT TRIGGER posts_version_on_target_figures
  AFTER UPDATE OF reach, likes, comments, shares, post_id ON targets
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW
  WHEN (OLD.reach IS DISTINCT FROM NEW.reach OR OLD.likes IS DISTINCT FROM NEW.likes
        OR OLD.comments IS DISTINCT FROM NEW.comments OR OLD.shares IS DISTINCT FROM NEW.shares
        OR OLD.post_id IS DISTINCT FROM NEW.post_id)
  EXECUTE FUNCTION posts_version_on_target();
`,
};
