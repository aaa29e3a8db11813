import type { Migration } from "./types.ts";

/**
 * Rich posts: a post's media list with alt text, thread parts, first comment, poll, per-network options
 * and split (`rich`, a JSON object; null when the post has none), and on each target the messages it
 * got with their outcomes (`parts`), its first comment's outcome (`first_comment`) and what was adapted
 * (`notes`), each JSON, null on a target written before them. The posts version's triggers stay as
 * they are: a post's rich content changes with its row, and the list pages show no target's parts.
 */
export const richPosts: Migration = {
  version: 15,
  name: "rich-posts",
  sql: `
ALTER TABLE posts ADD COLUMN rich TEXT;
ALTER TABLE targets ADD COLUMN parts TEXT;
ALTER TABLE targets ADD COLUMN first_comment TEXT;
ALTER TABLE targets ADD COLUMN notes TEXT;
`,
};
