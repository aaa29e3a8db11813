import { beforeEach, describe, expect, it } from "vitest";
import { newId } from "../../ids.ts";
import type { Store } from "../../store/types.ts";
import { type StoreFixture, T0 } from "./fixture.ts";

/** Users, their keys, and the calls they make. */
export function describeKeys(fixture: StoreFixture): void {
  const { user, post, target } = fixture;
  let store: Store;

  describe("users, keys and usage", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    it("createUser, getUser, findUserByEmail and listUsers return what was stored", async () => {
      const a = await user();
      const b = await user();
      expect(await store.getUser(a.id)).toEqual(a);
      expect(await store.findUserByEmail(b.email)).toEqual(b);
      expect(await store.getUser("usr_missing")).toBeNull();
      expect(await store.findUserByEmail("nobody@example.com")).toBeNull();
      expect((await store.listUsers()).map((u) => u.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    });

    it("keys are found by hash; revokeKey marks a key once", async () => {
      const u = await user();
      const key = {
        id: newId("key", T0),
        user_id: u.id,
        hash: "a".repeat(64),
        mode: "test" as const,
        hint: "sp_test_…abcd",
        created_at: T0,
        revoked_at: null,
      };
      await store.createKey(key);
      expect(await store.findKeyByHash(key.hash)).toEqual(key);
      expect(await store.findKeyByHash("b".repeat(64))).toBeNull();
      expect(await store.listKeys(u.id)).toEqual([key]);
      expect(await store.revokeKey(key.id, T0 + 1)).toBe(true);
      expect(await store.revokeKey(key.id, T0 + 2)).toBe(false);
      expect(await store.revokeKey("key_missing", T0)).toBe(false);
      expect((await store.findKeyByHash(key.hash))!.revoked_at).toBe(T0 + 1);
    });

    it("a key keeps its name; markKeyUsed sets when it was last used and never moves it back", async () => {
      const u = await user();
      const named = {
        id: newId("key", T0),
        user_id: u.id,
        hash: "9".repeat(64),
        mode: "live" as const,
        hint: "sp_live_…9999",
        created_at: T0,
        revoked_at: null,
        name: "CI deploys",
      };
      await store.createKey(named);
      expect(await store.findKeyByHash(named.hash)).toEqual(named);
      await store.markKeyUsed(named.id, T0 + 60_000);
      await store.markKeyUsed(named.id, T0 + 30_000);
      await store.markKeyUsed("key_missing", T0);
      expect(await store.listKeys(u.id)).toEqual([{ ...named, last_used_at: T0 + 60_000 }]);
      // What authenticates a call carries the time too, whichever process wrote it.
      expect((await store.authorizeCall(named.hash, "2026-06"))!.key).toEqual({
        ...named,
        last_used_at: T0 + 60_000,
      });
      await store.markKeyUsed(named.id, T0 + 120_000);
      expect((await store.authorizeCall(named.hash, "2026-06"))!.key.last_used_at).toBe(T0 + 120_000);
    });

    it("incrementApiCalls counts per user and month and returns the new count", async () => {
      const a = await user();
      const b = await user();
      expect(await store.incrementApiCalls(a.id, "2026-06")).toBe(1);
      expect(await store.incrementApiCalls(a.id, "2026-06")).toBe(2);
      expect(await store.incrementApiCalls(a.id, "2026-07")).toBe(1);
      expect(await store.incrementApiCalls(b.id, "2026-06")).toBe(1);
      expect(await store.getApiCalls(a.id, "2026-06")).toBe(2);
      expect(await store.getApiCalls(a.id, "2026-05")).toBe(0);
    });

    it("concurrent increments are all counted", async () => {
      const u = await user();
      await Promise.all(Array.from({ length: 50 }, () => store.incrementApiCalls(u.id, "2026-06")));
      expect(await store.getApiCalls(u.id, "2026-06")).toBe(50);
    });

    it("authorizeCall finds a live key and its user and counts the call; unknown and revoked keys count nothing", async () => {
      const u = await user();
      const key = {
        id: newId("key", T0),
        user_id: u.id,
        hash: "c".repeat(64),
        mode: "test" as const,
        hint: "sp_test_…cccc",
        created_at: T0,
        revoked_at: null,
      };
      await store.createKey(key);
      expect(await store.authorizeCall(key.hash, "2026-06")).toEqual({
        key,
        user: u,
        calls: 1,
        postsVersion: expect.any(Number),
      });
      const together = await Promise.all(
        Array.from({ length: 20 }, () => store.authorizeCall(key.hash, "2026-06")),
      );
      // Each concurrent call gets its own count.
      expect(together.map((c) => c!.calls).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 2),
      );
      expect(await store.authorizeCall("d".repeat(64), "2026-06")).toBeNull();
      await store.revokeKey(key.id, T0 + 1);
      // Refused at once, and not counted.
      expect(await store.authorizeCall(key.hash, "2026-06")).toBeNull();
      expect(await store.getApiCalls(u.id, "2026-06")).toBe(21);
      // A key whose user is gone authorizes nothing.
      await store.createKey({ ...key, id: newId("key", T0), hash: "e".repeat(64), user_id: "usr_gone" });
      expect(await store.authorizeCall("e".repeat(64), "2026-06")).toBeNull();
      expect(await store.getApiCalls("usr_gone", "2026-06")).toBe(0);
    });
    it("postsVersion moves with every change to the user's posts and their metrics; a call alone does not", async () => {
      const u = await user();
      const key = {
        id: newId("key", T0),
        user_id: u.id,
        hash: "f".repeat(64),
        mode: "test" as const,
        hint: "sp_test_…ffff",
        created_at: T0,
        revoked_at: null,
      };
      await store.createKey(key);
      const version = async () => (await store.authorizeCall(key.hash, "2026-06"))!.postsVersion;
      let last = await version();
      const moved = async (what: string) => {
        const now = await version();
        expect(now, what).not.toBe(last);
        // Versions never go back, so a page filed under an older one is never served again.
        expect(now, what).toBeGreaterThan(last);
        last = now;
      };
      expect(await version(), "a call alone").toBe(last);
      const p = post(u.id, { status: "draft", scheduled_at: null });
      await store.insertPost(p, [target(p.id)]);
      await moved("insertPost");
      await store.transitionPost(p.id, ["draft"], { caption: "edited" });
      await moved("transitionPost (an edit)");
      await store.transitionPost(p.id, ["draft"], { status: "published", published_at: T0 }, [
        target(p.id, "x", { status: "published", published_at: T0 }),
        target(p.id, "bluesky"),
      ]);
      await moved("transitionPost (published, targets replaced)");
      await store.reportMetrics(p.id, "x", { reach: 10, likes: 1, comments: 0, shares: 0 });
      await moved("reportMetrics");
      await store.finishTargets(p.id, [target(p.id, "bluesky", { status: "published", reach: 11 })], T0);
      await moved("finishTargets");
      expect(await version(), "nothing written").toBe(last);
      await store.deletePost(u.id, p.id);
      await moved("deletePost");
    });
  });
}
