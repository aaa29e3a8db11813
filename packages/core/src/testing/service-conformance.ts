import { describe } from "vitest";
import { accountsAndAnalyticsTests } from "./service/analytics.ts";
import { authTests } from "./service/auth.ts";
import { captionsTests } from "./service/captions.ts";
import { concurrencyTests } from "./service/concurrency.ts";
import { connectAccountsTests } from "./service/connect-accounts.ts";
import { createPostTests } from "./service/create-post.ts";
import { deletePostTests } from "./service/delete-post.ts";
import { deliveryLogTests } from "./service/delivery-log.ts";
import { draftTests } from "./service/drafts.ts";
import { eventTests } from "./service/events.ts";
import { type Harness, type MakeServiceTarget, useHarness } from "./service/harness.ts";
import { httpTests } from "./service/http.ts";
import { idempotencyTests } from "./service/idempotency.ts";
import { keyTests } from "./service/keys.ts";
import { limitsTests } from "./service/limits.ts";
import { listPageCacheTests } from "./service/list-page-cache.ts";
import { meTests } from "./service/me.ts";
import { mediaTests } from "./service/media.ts";
import { paginationTests } from "./service/pagination.ts";
import { readPostsTests } from "./service/read-posts.ts";
import { retryTests } from "./service/retry.ts";
import { richPostTests } from "./service/rich.ts";
import { sandboxTests } from "./service/sandbox.ts";
import { scheduleTests } from "./service/schedule.ts";
import { scheduleEndpointTests } from "./service/schedule-endpoint.ts";
import { textTests } from "./service/text.ts";
import { updatePostTests } from "./service/update-post.ts";
import { validateTests } from "./service/validate.ts";
import { webhookTests } from "./service/webhooks.ts";

/** The suite's groups, by name, in the order they run. */
const GROUPS = {
  auth: authTests,
  me: meTests,
  keys: keyTests,
  createPost: createPostTests,
  drafts: draftTests,
  schedule: scheduleTests,
  scheduleEndpoint: scheduleEndpointTests,
  readPosts: readPostsTests,
  pagination: paginationTests,
  listPageCache: listPageCacheTests,
  deletePost: deletePostTests,
  updatePost: updatePostTests,
  validate: validateTests,
  retry: retryTests,
  richPosts: richPostTests,
  captions: captionsTests,
  text: textTests,
  sandbox: sandboxTests,
  accountsAndAnalytics: accountsAndAnalyticsTests,
  connectAccounts: connectAccountsTests,
  webhooks: webhookTests,
  deliveryLog: deliveryLogTests,
  media: mediaTests,
  events: eventTests,
  http: httpTests,
  limits: limitsTests,
  idempotency: idempotencyTests,
  concurrency: concurrencyTests,
} satisfies Record<string, (h: Harness) => void>;

export type ServiceConformanceGroup = keyof typeof GROUPS;

/**
 * The groups whose assertions hold whichever network a post goes to, and so also run in live mode
 * (`ServiceTarget.live`): publishing through the networks' local peers with live keys. The others
 * assert the sandbox itself (simulated failures, metrics set through POST /sandbox/metrics, accounts
 * made with given followers or health, connect with test keys), which a live network does not offer.
 */
export const LIVE_GROUPS: readonly ServiceConformanceGroup[] = [
  "createPost",
  "drafts",
  "schedule",
  "readPosts",
  "deletePost",
  "updatePost",
  "idempotency",
];

/**
 * The service conformance suite: every rule of the contract and decisions.md, asserted through HTTP
 * requests and responses only (plus the store and clock the target exposes). Written once; run
 * against each store, in-process and over real HTTP, and (`groups: LIVE_GROUPS` with a live target)
 * with live keys against the networks' local peers.
 */
export function describeServiceConformance(
  label: string,
  makeTarget: MakeServiceTarget,
  options: {
    groups?: readonly ServiceConformanceGroup[];
    /** The target connects live accounts (`ServiceTarget.live`): the sandbox-only tests are skipped. */
    live?: boolean;
  } = {},
): void {
  describe(`service conformance: ${label}`, () => {
    const h = useHarness(makeTarget, options.live ?? false);
    const only = options.groups ? new Set(options.groups) : null;
    for (const [name, group] of Object.entries(GROUPS)) {
      if (!only || only.has(name as ServiceConformanceGroup)) group(h);
    }
  });
}
