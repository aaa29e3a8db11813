import type { Migration } from "../../migrations/types.ts";
import { initial } from "./0001-initial.ts";
import { livePublishing } from "./0002-live-publishing.ts";
import { manyInstances } from "./0003-many-instances.ts";
import { postCaptions } from "./0004-post-captions.ts";
import { oauthStates } from "./0005-oauth-states.ts";
import { postsVersion } from "./0006-posts-version.ts";
import { publishSteps } from "./0007-publish-steps.ts";
import { grantEnds } from "./0008-grant-ends.ts";
import { postsVersionAtCommit } from "./0009-posts-version-at-commit.ts";
import { keyNamesAndUse } from "./0010-key-names-and-use.ts";
import { richPosts } from "./0011-rich-posts.ts";

/** Every PostgreSQL migration, oldest first. Append new ones; never edit or reorder released ones. */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  initial,
  livePublishing,
  manyInstances,
  postCaptions,
  oauthStates,
  postsVersion,
  publishSteps,
  grantEnds,
  postsVersionAtCommit,
  keyNamesAndUse,
  richPosts,
];
