import { beforeEach, describe, expect, it } from "vitest";
import type { NetworkId } from "../../contract/networks.ts";
import type { AccountRecord, NewEvent, OAuthStateRecord, Store } from "../../store/types.ts";
import { type StoreFixture, T0 } from "./fixture.ts";

/** Connected accounts, their ending grants, and OAuth connects under way. */
export function describeAccounts(fixture: StoreFixture): void {
  const { user, event } = fixture;
  let store: Store;

  describe("accounts", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    it("putAccount inserts or replaces per (user, mode, platform); deleteAccount removes", async () => {
      const a = await user();
      const b = await user();
      const account: AccountRecord = {
        user_id: a.id,
        mode: "test",
        platform: "x",
        handle: "acme",
        followers: 5,
        health: "healthy",
        connected_at: T0,
        credentials: null,
      };
      await store.putAccount(account);
      await store.putAccount({ ...account, user_id: b.id, handle: "other" });
      await store.putAccount({ ...account, followers: 9, health: "reauth_required" });
      expect(await store.listAccounts(a.id, "test")).toEqual([
        { ...account, followers: 9, health: "reauth_required" },
      ]);
      expect(await store.getAccount(a.id, "test", "bluesky")).toBeNull();
      expect(await store.deleteAccount(a.id, "test", "x")).toBe(true);
      expect(await store.deleteAccount(a.id, "test", "x")).toBe(false);
      expect(await store.listAccounts(a.id, "test")).toEqual([]);
      expect((await store.getAccount(b.id, "test", "x"))!.handle).toBe("other");
    });

    it("a user's sandbox and live accounts of one network are apart; live ones keep their sealed credentials", async () => {
      const a = await user();
      const sandbox: AccountRecord = {
        user_id: a.id,
        mode: "test",
        platform: "bluesky",
        handle: "sandbox.example",
        followers: 0,
        health: "healthy",
        connected_at: T0,
        credentials: null,
      };
      const live: AccountRecord = {
        ...sandbox,
        mode: "live",
        handle: "real.example",
        followers: 12,
        credentials: "v1.abcd1234.iv.ct.tag",
      };
      expect(await store.countAccountsWithCredentials()).toBe(0);
      await store.putAccount(sandbox);
      await store.putAccount(live);
      expect(await store.listAccounts(a.id, "test")).toEqual([sandbox]);
      expect(await store.listAccounts(a.id, "live")).toEqual([live]);
      expect(await store.countAccountsWithCredentials()).toBe(1);
      expect(await store.setAccountCredentials(a.id, "live", "bluesky", "v1.abcd1234.iv2.ct2.tag2")).toBe(
        true,
      );
      expect(await store.setAccountCredentials(a.id, "live", "discord", "v1.x.y.z.w")).toBe(false);
      // Given what it expects to replace, a write that finds something else changes nothing.
      expect(
        await store.setAccountCredentials(
          a.id,
          "live",
          "bluesky",
          "v1.stale.iv.ct.tag",
          "v1.abcd1234.iv.ct.tag",
        ),
      ).toBe(false);
      expect((await store.getAccount(a.id, "live", "bluesky"))!.credentials).toBe("v1.abcd1234.iv2.ct2.tag2");
      expect(await store.deleteAccount(a.id, "live", "bluesky")).toBe(true);
      expect(await store.getAccount(a.id, "test", "bluesky")).toEqual(sandbox);
      expect(await store.countAccountsWithCredentials()).toBe(0);
    });

    it("updateAccount changes handle, followers and health only, with effects made from before and after", async () => {
      const a = await user();
      const live: AccountRecord = {
        user_id: a.id,
        mode: "live",
        platform: "telegram",
        handle: "@chan",
        followers: 3,
        health: "healthy",
        connected_at: T0,
        credentials: "v1.k.iv.ct.tag",
      };
      await store.putAccount(live);
      const seen: string[] = [];
      const updated = await store.updateAccount(
        a.id,
        "live",
        "telegram",
        { health: "reauth_required" },
        (before, after) => {
          seen.push(`${before.health}->${after.health}`);
          return { events: [event(a.id, "account.disconnected")] };
        },
      );
      expect(updated).toEqual({ ...live, health: "reauth_required" });
      expect(seen).toEqual(["healthy->reauth_required"]);
      expect((await store.listEvents(a.id)).map((e) => e.type)).toEqual(["account.disconnected"]);
      expect(await store.getAccount(a.id, "live", "telegram")).toEqual({
        ...live,
        health: "reauth_required",
      });
      expect(
        await store.updateAccount(a.id, "test", "telegram", { health: "healthy" }, () => {
          throw new Error("not called for a missing account");
        }),
      ).toBeNull();
    });
  });

  describe("ending grants (grants we cannot refresh)", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    const DAY = 86_400_000;
    const AHEAD = 7 * DAY;
    const live = (
      userId: string,
      platform: NetworkId,
      fields: Partial<AccountRecord> = {},
    ): AccountRecord => ({
      user_id: userId,
      mode: "live",
      platform,
      handle: `@${platform}`,
      followers: 0,
      health: "healthy",
      connected_at: T0,
      credentials: "v1.k.iv.ct.tag",
      ...fields,
    });
    const disconnected = (account: AccountRecord) => ({
      events: [
        {
          ...event(account.user_id, "account.disconnected"),
          data: { platform: account.platform, handle: account.handle, health: account.health },
        } as NewEvent,
      ],
    });

    it("grant_ends_at is kept with the account and replaced by a reconnect; absent when the grant has none", async () => {
      const a = await user();
      await store.putAccount(live(a.id, "facebook", { grant_ends_at: T0 + 60 * DAY }));
      await store.putAccount(live(a.id, "bluesky"));
      expect(await store.getAccount(a.id, "live", "facebook")).toEqual(
        live(a.id, "facebook", { grant_ends_at: T0 + 60 * DAY }),
      );
      const bluesky = await store.getAccount(a.id, "live", "bluesky");
      expect(bluesky).toEqual(live(a.id, "bluesky"));
      expect("grant_ends_at" in bluesky!).toBe(false);
      await store.putAccount(live(a.id, "facebook"));
      expect("grant_ends_at" in (await store.getAccount(a.id, "live", "facebook"))!).toBe(false);
    });

    it("settleEndingGrants turns live accounts of every user expiring within the window and reauth_required once ended, once each", async () => {
      const a = await user();
      const b = await user();
      const now = T0 + 10 * DAY;
      await store.putAccount(live(a.id, "facebook", { grant_ends_at: now + 3 * DAY })); // → expiring
      await store.putAccount(live(b.id, "instagram", { grant_ends_at: now + 2 * DAY })); // → expiring
      await store.putAccount(live(b.id, "threads", { grant_ends_at: now - 1, health: "expiring" })); // → ended
      await store.putAccount(live(a.id, "linkedin", { grant_ends_at: now + 8 * DAY })); // not yet
      await store.putAccount(live(a.id, "x")); // refreshed: no end kept
      await store.putAccount(live(b.id, "facebook", { grant_ends_at: now - DAY, health: "reauth_required" }));
      // A sandbox account never changes on its own.
      await store.putAccount({
        ...live(a.id, "pinterest", { grant_ends_at: now - DAY }),
        mode: "test",
        credentials: null,
      });
      const changed = await store.settleEndingGrants(now, AHEAD, 10, (account) =>
        account.health === "reauth_required" ? disconnected(account) : {},
      );
      expect(changed.map((c) => [c.user_id, c.platform, c.health])).toEqual([
        [b.id, "threads", "reauth_required"],
        [b.id, "instagram", "expiring"],
        [a.id, "facebook", "expiring"],
      ]);
      expect(changed[2]).toEqual(
        live(a.id, "facebook", { grant_ends_at: now + 3 * DAY, health: "expiring" }),
      );
      expect((await store.getAccount(b.id, "live", "threads"))!.health).toBe("reauth_required");
      expect((await store.getAccount(a.id, "live", "linkedin"))!.health).toBe("healthy");
      expect((await store.getAccount(a.id, "live", "x"))!.health).toBe("healthy");
      expect((await store.getAccount(a.id, "test", "pinterest"))!.health).toBe("healthy");
      expect((await store.listEvents(b.id)).map((e) => [e.type, e.data])).toEqual([
        ["account.disconnected", { platform: "threads", handle: "@threads", health: "reauth_required" }],
      ]);
      expect(await store.listEvents(a.id)).toEqual([]);
      // Nothing is changed, or sent, twice.
      expect(
        await store.settleEndingGrants(now, AHEAD, 10, () => {
          throw new Error("nothing to change");
        }),
      ).toEqual([]);
      // Later, the expiring grants end, and the next one comes into the window.
      const later = await store.settleEndingGrants(now + 3 * DAY, AHEAD, 10, disconnected);
      expect(later.map((c) => [c.platform, c.health])).toEqual([
        ["instagram", "reauth_required"],
        ["facebook", "reauth_required"],
        ["linkedin", "expiring"],
      ]);
    });

    it("settleEndingGrants changes at most `limit` accounts a call, earliest end first", async () => {
      const a = await user();
      const now = T0 + 10 * DAY;
      const platforms: NetworkId[] = ["facebook", "instagram", "threads"];
      for (const [i, platform] of platforms.entries())
        await store.putAccount(live(a.id, platform, { grant_ends_at: now + (3 - i) * DAY }));
      expect((await store.settleEndingGrants(now, AHEAD, 2)).map((c) => c.platform)).toEqual([
        "threads",
        "instagram",
      ]);
      expect((await store.settleEndingGrants(now, AHEAD, 2)).map((c) => c.platform)).toEqual(["facebook"]);
    });

    it("of concurrent sweeps each account is changed, and announced, by one", async () => {
      const users = await Promise.all([user(), user(), user()]);
      const now = T0 + 10 * DAY;
      for (const u of users) {
        await store.putAccount(live(u.id, "facebook", { grant_ends_at: now - 1 }));
        await store.putAccount(live(u.id, "instagram", { grant_ends_at: now + DAY }));
      }
      const runs = await Promise.all(
        Array.from({ length: 5 }, () =>
          store.settleEndingGrants(now, AHEAD, 100, (account) =>
            account.health === "reauth_required" ? disconnected(account) : {},
          ),
        ),
      );
      expect(runs.flat().length).toBe(6);
      for (const u of users) {
        expect((await store.listEvents(u.id)).map((e) => e.type)).toEqual(["account.disconnected"]);
        expect((await store.getAccount(u.id, "live", "instagram"))!.health).toBe("expiring");
      }
    });

    it("listAccountsWithoutGrantEnd pages through live accounts of the networks asked that hold credentials and no end; fillGrantEnd writes that end alone, over the credentials read", async () => {
      const a = await user();
      const b = await user();
      const mine = new Set([a.id, b.id]);
      await store.putAccount(live(a.id, "facebook"));
      await store.putAccount(live(a.id, "linkedin"));
      await store.putAccount(live(b.id, "instagram"));
      await store.putAccount(live(b.id, "threads", { grant_ends_at: T0 + DAY })); // has its end
      await store.putAccount(live(a.id, "x")); // a network not asked for
      await store.putAccount({ ...live(b.id, "facebook"), mode: "test", credentials: null });
      const asked: NetworkId[] = ["facebook", "instagram", "threads", "linkedin"];
      const pages: AccountRecord[][] = [];
      let after: AccountRecord | null = null;
      do {
        pages.push(await store.listAccountsWithoutGrantEnd(asked, after, 2));
        after = pages.at(-1)!.at(-1) ?? null;
      } while (pages.at(-1)!.length === 2 && pages.length < 1000);
      const keys = pages.flat().map((x) => `${x.user_id} ${x.platform}`);
      // Each listed once (the order is the database's own collation of ids, so only the set is checked).
      expect(keys.filter((k) => mine.has(k.split(" ")[0]!)).sort()).toEqual(
        [`${a.id} facebook`, `${a.id} linkedin`, `${b.id} instagram`].sort(),
      );
      expect(new Set(keys).size).toBe(keys.length);
      expect(await store.listAccountsWithoutGrantEnd([], null, 10)).toEqual([]);

      const sealed = live(a.id, "facebook").credentials!;
      expect(await store.fillGrantEnd(a.id, "facebook", T0 + 60 * DAY, "v1.k.other.ct.tag")).toBe(false);
      expect("grant_ends_at" in (await store.getAccount(a.id, "live", "facebook"))!).toBe(false);
      expect(await store.fillGrantEnd(a.id, "facebook", T0 + 60 * DAY, sealed)).toBe(true);
      expect(await store.getAccount(a.id, "live", "facebook")).toEqual(
        live(a.id, "facebook", { grant_ends_at: T0 + 60 * DAY }),
      );
      // Once kept, an end is not replaced, and the account is no longer listed.
      expect(await store.fillGrantEnd(a.id, "facebook", T0 + DAY, sealed)).toBe(false);
      expect((await store.getAccount(a.id, "live", "facebook"))!.grant_ends_at).toBe(T0 + 60 * DAY);
      expect(await store.fillGrantEnd(b.id, "threads", T0 + 9 * DAY, sealed)).toBe(false);
      expect(await store.fillGrantEnd(b.id, "pinterest", T0 + 9 * DAY, sealed)).toBe(false);
      const rest = await store.listAccountsWithoutGrantEnd(asked, null, 10_000);
      expect(
        rest
          .filter((x) => mine.has(x.user_id))
          .map((x) => x.platform)
          .sort(),
      ).toEqual(["instagram", "linkedin"]);
    });

    it("nextGrantChangeAt is when the next live account crosses a threshold: 7 days before its end while healthy, its end while expiring", async () => {
      const a = await user();
      expect(await store.nextGrantChangeAt(AHEAD)).toBeNull();
      await store.putAccount(live(a.id, "x"));
      await store.putAccount(
        live(a.id, "facebook", { grant_ends_at: T0 + 60 * DAY, health: "reauth_required" }),
      );
      await store.putAccount({
        ...live(a.id, "threads", { grant_ends_at: T0 }),
        mode: "test",
        credentials: null,
      });
      expect(await store.nextGrantChangeAt(AHEAD)).toBeNull();
      await store.putAccount(live(a.id, "linkedin", { grant_ends_at: T0 + 30 * DAY }));
      expect(await store.nextGrantChangeAt(AHEAD)).toBe(T0 + 23 * DAY);
      await store.putAccount(live(a.id, "instagram", { grant_ends_at: T0 + 20 * DAY, health: "expiring" }));
      expect(await store.nextGrantChangeAt(AHEAD)).toBe(T0 + 20 * DAY);
      // One already due answers a time already past.
      await store.putAccount(live(a.id, "threads", { grant_ends_at: T0 + DAY }));
      expect(await store.nextGrantChangeAt(AHEAD)).toBe(T0 - 6 * DAY);
    });
  });

  describe("OAuth connects under way", () => {
    beforeEach(() => {
      store = fixture.store;
    });

    const pending = (userId: string, hash: string, createdAt: number): OAuthStateRecord => ({
      state_hash: hash,
      user_id: userId,
      platform: "x",
      secret: "v1.abcd1234.iv.ct.tag",
      created_at: createdAt,
      expires_at: createdAt + 15 * 60_000,
    });

    it("a state is taken once, whole, and only before it expires", async () => {
      const a = await user();
      const first = pending(a.id, "a".repeat(64), T0);
      await store.putOAuthState(first);
      await store.putOAuthState({ ...pending(a.id, "b".repeat(64), T0), platform: "pinterest" });
      expect(await store.takeOAuthState("c".repeat(64), T0 + 1)).toBeNull();
      expect(await store.takeOAuthState(first.state_hash, T0 + 1)).toEqual(first);
      expect(await store.takeOAuthState(first.state_hash, T0 + 2)).toBeNull();
      // Expired: refused, and gone for good.
      expect(await store.takeOAuthState("b".repeat(64), T0 + 15 * 60_000)).toBeNull();
      expect(await store.takeOAuthState("b".repeat(64), T0 + 1)).toBeNull();
    });

    it("two callbacks racing with one state: exactly one takes it", async () => {
      const a = await user();
      await store.putOAuthState(pending(a.id, "d".repeat(64), T0));
      const taken = await Promise.all([
        store.takeOAuthState("d".repeat(64), T0 + 1),
        store.takeOAuthState("d".repeat(64), T0 + 1),
      ]);
      expect(taken.filter((t) => t !== null)).toHaveLength(1);
    });

    it("a new connect clears the ones that expired before it", async () => {
      const a = await user();
      await store.putOAuthState(pending(a.id, "e".repeat(64), T0));
      await store.putOAuthState(pending(a.id, "f".repeat(64), T0 + 15 * 60_000));
      // Taken with a clock that had not yet reached its expiry, it is still gone: it was cleared.
      expect(await store.takeOAuthState("e".repeat(64), T0 + 1)).toBeNull();
      expect(await store.takeOAuthState("f".repeat(64), T0 + 15 * 60_000 + 1)).not.toBeNull();
    });
  });
}
