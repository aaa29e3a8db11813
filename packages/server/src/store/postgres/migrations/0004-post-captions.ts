import type { Migration } from "../../migrations/types.ts";

/** Text per network: a post's overrides (`captions`), as a JSON object; null when it has none. */
export const postCaptions: Migration = {
  version: 4,
  name: "post-captions",
  sql: `
ALTER TABLE posts ADD COLUMN captions text;
`,
};
