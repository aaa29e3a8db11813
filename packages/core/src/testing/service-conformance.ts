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
import { type MakeServiceTarget, useHarness } from "./service/harness.ts";
import { httpTests } from "./service/http.ts";
import { idempotencyTests } from "./service/idempotency.ts";
import { limitsTests } from "./service/limits.ts";
import { listPageCacheTests } from "./service/list-page-cache.ts";
import { meTests } from "./service/me.ts";
import { mediaTests } from "./service/media.ts";
import { paginationTests } from "./service/pagination.ts";
import { readPostsTests } from "./service/read-posts.ts";
import { sandboxTests } from "./service/sandbox.ts";
import { scheduleTests } from "./service/schedule.ts";
import { scheduleEndpointTests } from "./service/schedule-endpoint.ts";
import { textTests } from "./service/text.ts";
import { updatePostTests } from "./service/update-post.ts";
import { webhookTests } from "./service/webhooks.ts";

/**
 * The service conformance suite: every rule of the contract and decisions.md, asserted through HTTP
 * requests and responses only (plus the store and clock the target exposes). Written once; run
 * against each store, in-process and over real HTTP.
 */
export function describeServiceConformance(label: string, makeTarget: MakeServiceTarget): void {
  describe(`service conformance: ${label}`, () => {
    const h = useHarness(makeTarget);
    authTests(h);
    meTests(h);
    createPostTests(h);
    draftTests(h);
    scheduleTests(h);
    scheduleEndpointTests(h);
    readPostsTests(h);
    paginationTests(h);
    listPageCacheTests(h);
    deletePostTests(h);
    updatePostTests(h);
    captionsTests(h);
    textTests(h);
    sandboxTests(h);
    accountsAndAnalyticsTests(h);
    connectAccountsTests(h);
    webhookTests(h);
    deliveryLogTests(h);
    mediaTests(h);
    eventTests(h);
    httpTests(h);
    limitsTests(h);
    idempotencyTests(h);
    concurrencyTests(h);
  });
}
