import type { Migration } from "../../migrations/types.ts";

/**
 * Rich posts, as SQLite's migration 15: a post's media list with alt text, thread parts, first comment,
 * poll, per-network options and split (`rich`, a JSON object; null when the post has none), and on each
 * target the messages it got with their outcomes (`parts`), its first comment's outcome
 * (`first_comment`) and what was adapted (`notes`), each JSON text, null on a target written before
 * them. Adding a nullable column with no default rewrites no rows.
 */
export const richPosts: Migration = {
  version: 11,
  name: "rich-posts",
  sql: `
ALTER TABLE posts ADD COLUMN rich text;
ALTER TABLE targets ADD COLUMN parts text;
ALTER TABLE targets ADD COLUMN first_comment text;
ALTER TABLE targets ADD COLUMN notes text;
`,
};
