import type { Migration } from "./types.ts";

/** Text per network: a post's overrides (`captions`), as a JSON object; null when it has none. */
export const postCaptions: Migration = {
  version: 7,
  name: "post-captions",
  sql: `
ALTER TABLE posts ADD COLUMN captions TEXT;
`,
};
