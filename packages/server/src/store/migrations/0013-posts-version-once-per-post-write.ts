import type { Migration } from "./types.ts";

/**
 * A post's targets are written only with a write to the post's own row — inserted with it
 * (`insertPost`), or replaced with its update (`transitionPost`) — in the same transaction, and that
 * row's trigger already moves the posts version. The trigger on each inserted target moved it again,
 * once per network: three more updates of the user's row for a post to three networks.
 */
export const postsVersionOncePerPostWrite: Migration = {
  version: 13,
  name: "posts-version-once-per-post-write",
  sql: `
DROP TRIGGER posts_version_on_target_insert;
`,
};
