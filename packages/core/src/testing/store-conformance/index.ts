import { afterEach, beforeEach, describe } from "vitest";
import type { Store } from "../../store/types.ts";
import { describeAccounts } from "./accounts.ts";
import { describeAnalytics } from "./analytics.ts";
import { storeFixture } from "./fixture.ts";
import { describeIdempotency } from "./idempotency.ts";
import { describeKeys } from "./keys.ts";
import { describeMedia } from "./media.ts";
import { describeOutbox } from "./outbox.ts";
import { describePosts } from "./posts.ts";
import { describePublishing } from "./publishing.ts";
import { describeShared } from "./shared.ts";

export type MakeStore = () => Store | Promise<Store>;

/**
 * The Store conformance suite: the atomic steps the service relies on, checked through the interface
 * alone so every store (memory, SQLite, Postgres) passes the same tests. One file per area of the
 * Store; each test gets a new store from `makeStore` and closes it after.
 */
export function describeStoreConformance(label: string, makeStore: MakeStore): void {
  describe(`store conformance: ${label}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    const fixture = storeFixture(() => store);
    describeKeys(fixture);
    describeAccounts(fixture);
    describePosts(fixture);
    describePublishing(fixture);
    describeShared(fixture);
    describeAnalytics(fixture);
    describeOutbox(fixture);
    describeIdempotency(fixture);
    describeMedia(fixture);
  });
}
