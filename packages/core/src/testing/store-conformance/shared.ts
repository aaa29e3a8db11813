import { beforeEach, describe, expect, it } from "vitest";
import type { Store } from "../../store/types.ts";
import { type StoreFixture, T0 } from "./fixture.ts";

/** What a store several instances share adds: leases, exact rate-limit counts, nothing released at start. */
export function describeShared(fixture: StoreFixture): void {
  const { user, post } = fixture;
  let store: Store;

  describe("a shared store (several instances)", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    it("a shared store leases each claim: a post still publishing is claimed again once its lease has run out, and releases nothing at start", async () => {
      if (!store.shared) return;
      const u = await user();
      const scheduled = post(u.id, { scheduled_at: T0 + 100 });
      const now = post(u.id, { status: "publishing", scheduled_at: null, created_at: T0 + 7 });
      await store.insertPost(scheduled, []);
      await store.insertPost(now, []);
      expect((await store.claimDuePosts(T0 + 100, 10)).map((p) => p.id)).toEqual([scheduled.id]);
      expect(await store.releaseInterruptedPublishing()).toBe(0);
      // Within the lease, no one else takes it; a day later (any lease has run out) both come back.
      expect(await store.claimDuePosts(T0 + 200, 10)).toEqual([]);
      const leaseEnds = await store.nextDueAt();
      expect(leaseEnds).not.toBeNull();
      expect(leaseEnds!).toBeGreaterThan(T0 + 200);
      const later = T0 + 24 * 60 * 60 * 1000;
      const again = await store.claimDuePosts(later, 10);
      expect(again.map((p) => p.id).sort()).toEqual([scheduled.id, now.id].sort());
      expect(again.every((p) => p.status === "publishing")).toBe(true);
      expect(await store.claimDuePosts(later, 10)).toEqual([]);
      const done = await store.transitionPost(now.id, ["publishing"], {
        status: "published",
        published_at: later,
      });
      expect(done!.status).toBe("published");
      expect(await store.claimDuePosts(later * 2, 10)).toEqual(
        [scheduled.id].map((id) => expect.objectContaining({ id })),
      );
    });

    it("countKeyRequest counts each key's requests per window, exactly under concurrency", async () => {
      if (!store.shared) return;
      expect(store.countKeyRequest).toBeTypeOf("function");
      const counts = await Promise.all(Array.from({ length: 25 }, () => store.countKeyRequest!("key_a", T0)));
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect(await store.countKeyRequest!("key_b", T0)).toBe(1);
      expect(await store.countKeyRequest!("key_a", T0 + 60_000)).toBe(1);
    });

    it("shared stores free nothing in flight at start: an in-flight key frees itself when it expires", async () => {
      if (!store.shared) return;
      const u = await user();
      const record = {
        user_id: u.id,
        key: "k",
        fingerprint: "f",
        status: null,
        body: null,
        created_at: T0,
        expires_at: T0 + 1000,
      };
      expect(await store.beginIdempotentRequest(record)).toBeNull();
      expect(await store.releaseInterruptedIdempotentRequests()).toBe(0);
      expect(await store.beginIdempotentRequest({ ...record, created_at: T0 + 1 })).toMatchObject({
        status: null,
      });
      expect(await store.beginIdempotentRequest({ ...record, created_at: T0 + 1000 })).toBeNull();
    });
  });
}
