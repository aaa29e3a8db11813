import { initial } from "./0001-initial.ts";
import { idempotencyKeys } from "./0002-idempotency-keys.ts";
import { deliveryLog } from "./0003-delivery-log.ts";
import { analyticsDays } from "./0004-analytics-days.ts";
import { eventsByCreated } from "./0005-events-by-created.ts";
import { livePublishing } from "./0006-live-publishing.ts";
import { postCaptions } from "./0007-post-captions.ts";
import { oauthStates } from "./0008-oauth-states.ts";
import { postsVersion } from "./0009-posts-version.ts";
import { publishSteps } from "./0010-publish-steps.ts";
import { grantEnds } from "./0011-grant-ends.ts";
import { postsVersionOnChangedMetrics } from "./0012-posts-version-on-changed-metrics.ts";
import { fewerWritesPerPost } from "./0013-fewer-writes-per-post.ts";
import { keyNamesAndUse } from "./0014-key-names-and-use.ts";
import { richPosts } from "./0015-rich-posts.ts";
import type { Migration } from "./types.ts";

export type { Migration } from "./types.ts";

/** Every migration, oldest first. Append new ones; never edit or reorder released ones. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  idempotencyKeys,
  deliveryLog,
  analyticsDays,
  eventsByCreated,
  livePublishing,
  postCaptions,
  oauthStates,
  postsVersion,
  publishSteps,
  grantEnds,
  postsVersionOnChangedMetrics,
  fewerWritesPerPost,
  keyNamesAndUse,
  richPosts,
];
