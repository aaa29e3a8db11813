import type { Migration } from "./types.ts";

/**
 * Two writes every new post made for nothing:
 * - A post's targets are written only with a write to the post's own row — inserted with it
 *   (`insertPost`), or replaced with its update (`transitionPost`) — in the same transaction, and that
 *   row's trigger already moves the posts version. The trigger on each inserted target moved it again,
 *   once per network: three more updates of the user's row for a post to three networks.
 * - No query reads posts by user and creation time (the month's count reads post_creations, pages
 *   read by user and id), so the index `posts_by_user_created` was written and never read.
 */
export const fewerWritesPerPost: Migration = {
  version: 13,
  name: "fewer-writes-per-post",
  sql: `
DROP TRIGGER posts_version_on_target_insert;
DROP INDEX posts_by_user_created;
`,
};
