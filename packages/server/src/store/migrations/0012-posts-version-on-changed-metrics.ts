import type { Migration } from "./types.ts";

/**
 * The posts version moves when a target's figures change, not whenever an UPDATE names them: writing a
 * network's outcome sets every column of the target, figures included, and each such write cost an
 * update of the user's row for nothing (a publish-now to three networks made three). SQLite fires an
 * `UPDATE OF` trigger for every column in the SET list whatever its value, hence the WHEN.
 */
export const postsVersionOnChangedMetrics: Migration = {
  version: 12,
  name: "posts-version-on-changed-metrics",
  sql: `
DROP TRIGGER posts_version_on_target_metrics;
CREATE TRIGGER posts_version_on_target_metrics AFTER UPDATE OF reach, likes, comments, shares, post_id ON targets
WHEN OLD.reach IS NOT NEW.reach OR OLD.likes IS NOT NEW.likes OR OLD.comments IS NOT NEW.comments
  OR OLD.shares IS NOT NEW.shares OR OLD.post_id IS NOT NEW.post_id
BEGIN
  UPDATE users SET posts_version = posts_version + 1
  WHERE id IN (SELECT user_id FROM posts WHERE id IN (OLD.post_id, NEW.post_id));
END;
`,
};
