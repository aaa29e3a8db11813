import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EventType } from "../contract/events.ts";
import type { NetworkId } from "../contract/networks.ts";
import { newId } from "../ids.ts";
import { sampleEvent } from "../service/sandbox/sample-events.ts";
import { IdempotencyKeyTaken } from "../store/idempotency-key-taken.ts";
import { NOT_ATTEMPTED } from "../store/settle.ts";
import type {
  AccountRecord,
  NewEvent,
  NewEventBase,
  OAuthStateRecord,
  PostRecord,
  Store,
  TargetRecord,
  UserRecord,
  WebhookRecord,
} from "../store/types.ts";

export type MakeStore = () => Store | Promise<Store>;

const T0 = Date.UTC(2026, 5, 15, 12, 0, 0);

/**
 * The Store conformance suite: the atomic steps the service relies on, checked through the interface
 * alone so every store (memory, SQLite, Postgres) passes the same tests.
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

    const user = async (): Promise<UserRecord> => {
      const id = newId("usr", T0);
      const record: UserRecord = {
        id,
        email: `${id.toLowerCase()}@example.com`,
        name: "Test",
        studio: "Test",
        plan: "creator",
        created_at: T0,
      };
      await store.createUser(record);
      return record;
    };

    const post = (userId: string, fields: Partial<PostRecord> = {}): PostRecord => ({
      id: newId("post", T0),
      user_id: userId,
      mode: "test",
      caption: "hello",
      platforms: ["x"],
      status: "scheduled",
      media: null,
      scheduled_at: T0 + 60_000,
      published_at: null,
      created_at: T0,
      ...fields,
    });

    const target = (
      postId: string,
      platform: NetworkId = "x",
      fields: Partial<TargetRecord> = {},
    ): TargetRecord => ({
      post_id: postId,
      platform,
      status: "pending",
      text: "hello",
      permalink: null,
      error: null,
      published_at: null,
      reach: 0,
      likes: 0,
      comments: 0,
      shares: 0,
      ...NOT_ATTEMPTED,
      ...fields,
    });

    const event = (
      userId: string,
      type: EventType = "post.published",
      fields: Partial<NewEventBase> = {},
    ): NewEvent =>
      sampleEvent(type, T0, {
        id: newId("evt", T0),
        user_id: userId,
        created: Math.floor(T0 / 1000),
        ...fields,
      });

    const webhook = (userId: string, fields: Partial<WebhookRecord> = {}): WebhookRecord => ({
      id: newId("wh", T0),
      user_id: userId,
      url: "https://example.com/hook",
      events: ["post.published"],
      secret: "whsec_dGVzdA==",
      status: "enabled",
      created_at: T0,
      ...fields,
    });

    describe("users, keys and usage", () => {
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

    describe("accounts", () => {
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
        expect((await store.getAccount(a.id, "live", "bluesky"))!.credentials).toBe(
          "v1.abcd1234.iv2.ct2.tag2",
        );
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
        await store.putAccount(
          live(b.id, "facebook", { grant_ends_at: now - DAY, health: "reauth_required" }),
        );
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

    describe("posts", () => {
      it("insertPost stores the post and its targets; getPost is scoped to the user", async () => {
        const a = await user();
        const b = await user();
        const p = post(a.id, { platforms: ["x", "bluesky"], media: "https://example.com/a.png" });
        await store.insertPost(p, [target(p.id, "x"), target(p.id, "bluesky")]);
        expect(await store.getPost(a.id, p.id)).toEqual(p);
        expect(await store.getPost(b.id, p.id)).toBeNull();
        expect((await store.getTargets(p.id)).map((t) => t.platform)).toEqual(["x", "bluesky"]);
        await expect(store.insertPost(p, [])).rejects.toThrow();
      });

      it("records handed out are copies: changing one does not change the store", async () => {
        const u = await user();
        const p = post(u.id);
        await store.insertPost(p, [target(p.id)]);
        const got = (await store.getPost(u.id, p.id))!;
        got.status = "published";
        got.platforms.push("bluesky");
        (await store.getTargets(p.id))[0]!.reach = 99;
        p.caption = "changed after insert";
        expect(await store.getPost(u.id, p.id)).toMatchObject({
          status: "scheduled",
          platforms: ["x"],
          caption: "hello",
        });
        expect((await store.getTargets(p.id))[0]!.reach).toBe(0);
      });

      it("listPosts: most recent first by id, filtered by status, limited, paged with beforeId, per user", async () => {
        const a = await user();
        const b = await user();
        const made: PostRecord[] = [];
        for (let i = 0; i < 5; i++) {
          const p = post(a.id, { status: i % 2 === 0 ? "published" : "draft", scheduled_at: null });
          made.push(p);
          await store.insertPost(p, []);
        }
        await store.insertPost(post(b.id), []);
        const newestFirst = [...made].reverse().map((p) => p.id);
        expect((await store.listPosts(a.id, { limit: 10 })).map((p) => p.id)).toEqual(newestFirst);
        expect((await store.listPosts(a.id, { limit: 2 })).map((p) => p.id)).toEqual(newestFirst.slice(0, 2));
        expect(
          (await store.listPosts(a.id, { limit: 10, beforeId: newestFirst[1] })).map((p) => p.id),
        ).toEqual(newestFirst.slice(2));
        expect((await store.listPosts(a.id, { limit: 10, statuses: ["draft"] })).map((p) => p.id)).toEqual(
          newestFirst.filter((id) => made.find((p) => p.id === id)!.status === "draft"),
        );
        expect(await store.listPosts(a.id, { limit: 10, statuses: ["scheduled"] })).toEqual([]);
        expect((await store.listPosts(a.id, { limit: 10, statuses: [] })).length).toBe(5);
      });

      it("countPostsCreatedSince counts from `since`, deleted posts included", async () => {
        const u = await user();
        const old = post(u.id, { created_at: T0 - 1 });
        const p1 = post(u.id, { created_at: T0 });
        const p2 = post(u.id, { created_at: T0 + 5 });
        for (const p of [old, p1, p2]) await store.insertPost(p, []);
        expect(await store.countPostsCreatedSince(u.id, T0)).toBe(2);
        await store.deletePost(u.id, p1.id);
        expect(await store.countPostsCreatedSince(u.id, T0)).toBe(2);
        expect(await store.countPostsCreatedSince((await user()).id, T0)).toBe(0);
      });

      it("deletePost removes the post and its targets, only for its owner, writing the effects for the record as it was", async () => {
        const a = await user();
        const b = await user();
        const p = post(a.id);
        await store.insertPost(p, [target(p.id)]);
        expect(
          await store.deletePost(b.id, p.id, () => ({ events: [event(b.id, "post.deleted")] })),
        ).toBeNull();
        expect(await store.listEvents(b.id)).toEqual([]);
        const seen: PostRecord[] = [];
        const removed = await store.deletePost(a.id, p.id, (record) => {
          seen.push(record);
          return {
            events: [
              {
                id: newId("evt", T0),
                user_id: a.id,
                type: "post.deleted",
                created: Math.floor(T0 / 1000),
                data: { post_id: record.id, previous_status: record.status },
              },
            ],
          };
        });
        expect(removed).toEqual(p);
        expect(seen).toEqual([p]);
        expect(await store.getPost(a.id, p.id)).toBeNull();
        expect(await store.getTargets(p.id)).toEqual([]);
        expect((await store.listEvents(a.id)).map((e) => e.data)).toEqual([
          { post_id: p.id, previous_status: "scheduled" },
        ]);
        expect(await store.deletePost(a.id, p.id)).toBeNull();
      });

      it("transitionPost is a compare-and-set on status: applied with targets and events only when the status matches", async () => {
        const u = await user();
        const p = post(u.id);
        await store.insertPost(p, [target(p.id)]);
        const published = [
          target(p.id, "x", { status: "published", permalink: "https://x.com/a/status/1", published_at: T0 }),
        ];
        const refused = await store.transitionPost(
          p.id,
          ["publishing"],
          { status: "published", published_at: T0 },
          published,
          {
            events: [event(u.id)],
          },
        );
        expect(refused).toBeNull();
        expect(await store.getPost(u.id, p.id)).toEqual(p);
        expect(await store.getTargets(p.id)).toEqual([target(p.id)]);
        expect(await store.listEvents(u.id)).toEqual([]);

        const applied = await store.transitionPost(
          p.id,
          ["scheduled", "draft"],
          { status: "published", published_at: T0 },
          published,
          {
            events: [event(u.id)],
          },
        );
        expect(applied).toEqual({ ...p, status: "published", published_at: T0 });
        expect(await store.getTargets(p.id)).toEqual(published);
        expect(await store.listEvents(u.id)).toHaveLength(1);
        expect(await store.transitionPost("post_missing", ["scheduled"], { status: "draft" })).toBeNull();
      });

      it("transitionPost can clear scheduled_at and keeps targets when none are given", async () => {
        const u = await user();
        const p = post(u.id, { status: "publishing" });
        await store.insertPost(p, [target(p.id)]);
        const updated = await store.transitionPost(p.id, ["publishing"], {
          status: "draft",
          scheduled_at: null,
        });
        expect(updated).toMatchObject({ status: "draft", scheduled_at: null });
        expect(await store.getTargets(p.id)).toEqual([target(p.id)]);
      });
    });

    describe("editing posts", () => {
      it("captions (text per network) are kept with the post; a post without any has none, never an empty object", async () => {
        const u = await user();
        const p = post(u.id, { platforms: ["x", "linkedin"], captions: { linkedin: "The longer story." } });
        await store.insertPost(p, [target(p.id, "x"), target(p.id, "linkedin")]);
        expect(await store.getPost(u.id, p.id)).toEqual(p);
        expect((await store.listPosts(u.id, { limit: 10 }))[0]).toEqual(p);
        const bare = post(u.id, { captions: {} });
        await store.insertPost(bare, [target(bare.id)]);
        expect(await store.getPost(u.id, bare.id)).not.toHaveProperty("captions");
      });

      it("transitionPost edits caption, captions, platforms and media with the targets, as one compare-and-set", async () => {
        const u = await user();
        const p = post(u.id, { status: "scheduled", captions: { x: "Short." } });
        await store.insertPost(p, [target(p.id, "x")]);
        const edited = {
          caption: "New text",
          captions: { bluesky: "For Bluesky." },
          platforms: ["x", "bluesky"] as NetworkId[],
          media: "https://example.com/b.png",
          status: "draft" as const,
          scheduled_at: null,
        };
        const targets = [
          target(p.id, "x", { text: "New text" }),
          target(p.id, "bluesky", { text: "For Bluesky." }),
        ];
        const written = await store.transitionPost(p.id, ["scheduled"], edited, targets, (updated) => ({
          events: [event(updated.user_id, "post.scheduled")],
        }));
        const expected = { ...p, ...edited };
        expect(written).toEqual(expected);
        expect(await store.getPost(u.id, p.id)).toEqual(expected);
        expect(await store.getTargets(p.id)).toEqual(targets);
        expect(await store.listEvents(u.id)).toHaveLength(1);
        // Edits leave what they do not name; {} removes the overrides; media can be removed.
        const again = await store.transitionPost(p.id, ["draft"], { captions: {}, media: null });
        expect(again).toEqual({ ...p, ...edited, captions: undefined, media: null });
        expect(await store.getPost(u.id, p.id)).not.toHaveProperty("captions");
        expect(await store.getTargets(p.id)).toEqual(targets);
      });

      it("an edit racing a claim: after claimDuePosts the edit is refused and the post publishes as claimed", async () => {
        const u = await user();
        const p = post(u.id, { scheduled_at: T0 });
        await store.insertPost(p, [target(p.id)]);
        expect(await store.claimDuePosts(T0, 10)).toEqual([{ ...p, status: "publishing" }]);
        const edit = await store.transitionPost(p.id, ["scheduled"], { caption: "too late" }, [
          target(p.id, "x", { text: "too late" }),
        ]);
        expect(edit).toBeNull();
        expect(await store.getPost(u.id, p.id)).toEqual({ ...p, status: "publishing" });
        expect(await store.getTargets(p.id)).toEqual([target(p.id)]);
        // And the other way round: an edit that lands first is what the claim hands out.
        const q = post(u.id, { scheduled_at: T0 });
        await store.insertPost(q, [target(q.id)]);
        await store.transitionPost(q.id, ["scheduled"], { caption: "in time" }, [
          target(q.id, "x", { text: "in time" }),
        ]);
        expect(await store.claimDuePosts(T0, 10)).toEqual([
          { ...q, caption: "in time", status: "publishing" },
        ]);
        expect((await store.getTargets(q.id))[0]!.text).toBe("in time");
      });
    });

    describe("scheduling steps", () => {
      it("claimDuePosts moves due scheduled posts to publishing, oldest due first, and never hands one out twice", async () => {
        const u = await user();
        const late = post(u.id, { scheduled_at: T0 + 2000 });
        const early = post(u.id, { scheduled_at: T0 + 1000 });
        const future = post(u.id, { scheduled_at: T0 + 10_000 });
        for (const p of [late, early, future]) await store.insertPost(p, [target(p.id)]);
        const [a, b] = await Promise.all([
          store.claimDuePosts(T0 + 5000, 10),
          store.claimDuePosts(T0 + 5000, 10),
        ]);
        // Claims made together may share the due posts (a store with row locks skips the rows another
        // claim holds), but between them each post is handed out once, and each claim is in due order.
        const claimed = [...a!, ...b!];
        expect(claimed.map((p) => p.id).sort()).toEqual([early.id, late.id].sort());
        for (const batch of [a!, b!]) {
          const order = [early.id, late.id].filter((id) => batch.some((p) => p.id === id));
          expect(batch.map((p) => p.id)).toEqual(order);
        }
        expect(claimed.every((p) => p.status === "publishing")).toBe(true);
        expect((await store.getPost(u.id, early.id))!.status).toBe("publishing");
        expect((await store.getPost(u.id, future.id))!.status).toBe("scheduled");
        expect(await store.claimDuePosts(T0 + 5000, 10)).toEqual([]);
      });

      it("claimDuePosts includes a post due exactly now, respects the limit, and skips other statuses", async () => {
        const u = await user();
        const posts = [0, 1, 2].map((i) => post(u.id, { scheduled_at: T0 + i }));
        const draft = post(u.id, { status: "draft", scheduled_at: T0 });
        for (const p of [...posts, draft]) await store.insertPost(p, []);
        expect((await store.claimDuePosts(T0, 10)).map((p) => p.id)).toEqual([posts[0]!.id]);
        expect((await store.claimDuePosts(T0 + 10, 1)).map((p) => p.id)).toEqual([posts[1]!.id]);
        expect((await store.claimDuePosts(T0 + 10, 1)).map((p) => p.id)).toEqual([posts[2]!.id]);
        expect(await store.claimDuePosts(T0 + 10, 10)).toEqual([]);
      });

      it("many concurrent claims hand each post out exactly once", async () => {
        const u = await user();
        const posts = Array.from({ length: 20 }, (_, i) => post(u.id, { scheduled_at: T0 + i }));
        for (const p of posts) await store.insertPost(p, []);
        const batches = await Promise.all(Array.from({ length: 8 }, () => store.claimDuePosts(T0 + 100, 3)));
        const more = await store.claimDuePosts(T0 + 100, 100);
        const ids = [...batches.flat(), ...more].map((p) => p.id);
        expect(ids.sort()).toEqual(posts.map((p) => p.id).sort());
      });

      it("nextDueAt is the earliest scheduled_at among scheduled posts, or null", async () => {
        const u = await user();
        expect(await store.nextDueAt()).toBeNull();
        await store.insertPost(post(u.id, { scheduled_at: T0 + 500 }), []);
        await store.insertPost(post(u.id, { scheduled_at: T0 + 100, status: "draft" }), []);
        const soon = post(u.id, { scheduled_at: T0 + 200 });
        await store.insertPost(soon, []);
        expect(await store.nextDueAt()).toBe(T0 + 200);
        await store.claimDuePosts(T0 + 200, 10);
        expect(await store.nextDueAt()).toBe(T0 + 500);
      });

      it("deletePost against a claim: a deleted post is not claimed; a claimed post deleted cannot complete", async () => {
        const u = await user();
        const first = post(u.id);
        const second = post(u.id);
        await store.insertPost(first, [target(first.id)]);
        await store.insertPost(second, [target(second.id)]);
        await store.deletePost(u.id, first.id);
        const claimed = await store.claimDuePosts(T0 + 60_000, 10);
        expect(claimed.map((p) => p.id)).toEqual([second.id]);
        const removed = await store.deletePost(u.id, second.id);
        expect(removed!.status).toBe("publishing");
        const done = await store.transitionPost(
          second.id,
          ["publishing"],
          { status: "published", published_at: T0 },
          [],
          {
            events: [event(u.id)],
          },
        );
        expect(done).toBeNull();
        expect(await store.listEvents(u.id)).toEqual([]);
      });

      it("releaseInterruptedPublishing returns publishing posts to scheduled (created_at as due time when none)", async () => {
        if (store.shared) return; // see "a shared store leases each claim"
        const u = await user();
        const scheduled = post(u.id, { scheduled_at: T0 + 100 });
        const now = post(u.id, { status: "publishing", scheduled_at: null, created_at: T0 + 7 });
        await store.insertPost(scheduled, []);
        await store.insertPost(now, []);
        await store.claimDuePosts(T0 + 100, 10);
        expect(await store.releaseInterruptedPublishing()).toBe(2);
        expect(await store.getPost(u.id, scheduled.id)).toMatchObject({
          status: "scheduled",
          scheduled_at: T0 + 100,
        });
        expect(await store.getPost(u.id, now.id)).toMatchObject({
          status: "scheduled",
          scheduled_at: T0 + 7,
        });
        expect(await store.releaseInterruptedPublishing()).toBe(0);
        expect(await store.nextDueAt()).toBe(T0 + 7);
      });
    });

    describe("publishing targets", () => {
      it("beginTargetAttempts starts each due pending target once: in flight, counted, timed", async () => {
        const u = await user();
        const p = post(u.id, { status: "publishing", platforms: ["x", "bluesky", "discord"] });
        await store.insertPost(p, [
          target(p.id, "x"),
          target(p.id, "bluesky", { next_attempt_at: T0 + 60_000 }),
          target(p.id, "discord", { status: "published" }),
        ]);
        const started = await store.beginTargetAttempts(p.id, ["x", "bluesky", "discord"], T0);
        expect(started).toEqual([
          { ...target(p.id, "x"), in_flight: true, attempts: 1, attempted_at: T0, next_attempt_at: null },
        ]);
        expect(await store.beginTargetAttempts(p.id, ["x"], T0 + 1)).toEqual([]);
        const concurrent = await Promise.all([
          store.beginTargetAttempts(p.id, ["bluesky"], T0 + 60_000),
          store.beginTargetAttempts(p.id, ["bluesky"], T0 + 60_000),
        ]);
        expect(concurrent.flat()).toHaveLength(1);
      });

      it("beginAllAttempts, where a store has it, is getTargets and beginTargetAttempts of every target in one step", async (ctx) => {
        if (!store.beginAllAttempts) return ctx.skip();
        const u = await user();
        const p = post(u.id, { status: "publishing", platforms: ["x", "bluesky", "discord"] });
        const waiting = target(p.id, "bluesky", { next_attempt_at: T0 + 60_000 });
        const done = target(p.id, "discord", { status: "published" });
        await store.insertPost(p, [target(p.id, "x"), waiting, done]);
        const startedX = {
          ...target(p.id, "x"),
          in_flight: true,
          attempts: 1,
          attempted_at: T0,
          next_attempt_at: null,
        };
        expect(await store.beginAllAttempts(p.id, T0)).toEqual({
          targets: [startedX, waiting, done],
          started: [startedX],
        });
        expect(await store.beginAllAttempts(p.id, T0 + 1)).toEqual({
          targets: [startedX, waiting, done],
          started: [],
        });
        const concurrent = await Promise.all([
          store.beginAllAttempts(p.id, T0 + 60_000),
          store.beginAllAttempts(p.id, T0 + 60_000),
        ]);
        expect(concurrent.flatMap((c) => c.started).map((t) => t.platform)).toEqual(["bluesky"]);
        expect(await store.beginAllAttempts("post_missing", T0)).toEqual({ targets: [], started: [] });
      });

      it("finishTargets writes outcomes and settles the post: published, publishing while pending, draft when all failed", async () => {
        const u = await user();
        const p = post(u.id, { status: "publishing", platforms: ["x", "bluesky"], scheduled_at: T0 });
        await store.insertPost(p, [target(p.id, "x"), target(p.id, "bluesky")]);
        const failedX = target(p.id, "x", { status: "failed", error: "X: refused" });
        const stillPublishing = await store.finishTargets(p.id, [failedX], T0 + 5, {
          events: [event(u.id, "post.failed")],
        });
        expect(stillPublishing).toMatchObject({ status: "publishing", published_at: null });
        const publishedBluesky = target(p.id, "bluesky", {
          status: "published",
          permalink: "https://bsky.app/x",
          published_at: T0 + 9,
        });
        const settled = await store.finishTargets(p.id, [publishedBluesky], T0 + 9, (written) => ({
          events: [event(u.id, written.status === "published" ? "post.published" : "post.failed")],
        }));
        expect(settled).toMatchObject({ status: "published", published_at: T0 + 9 });
        expect(await store.getTargets(p.id)).toEqual([failedX, publishedBluesky]);
        expect((await store.listEvents(u.id)).map((e) => e.type)).toEqual(["post.failed", "post.published"]);
        // A later write keeps the first publication time.
        expect(await store.finishTargets(p.id, [], T0 + 99)).toMatchObject({ published_at: T0 + 9 });

        const q = post(u.id, { status: "publishing", scheduled_at: T0 });
        await store.insertPost(q, [target(q.id, "x")]);
        expect(
          await store.finishTargets(q.id, [target(q.id, "x", { status: "failed", error: "no" })], T0),
        ).toMatchObject({
          status: "draft",
          scheduled_at: null,
          published_at: null,
        });
        expect(await store.finishTargets("post_missing", [], T0, { events: [event(u.id)] })).toBeNull();
        expect(await store.listEvents(u.id)).toHaveLength(2);
      });

      it("finishTargets never writes over a target already settled: a late outcome, and what it would announce, are dropped", async () => {
        const u = await user();
        const p = post(u.id, { status: "publishing", platforms: ["x", "bluesky"], scheduled_at: T0 });
        await store.insertPost(p, [target(p.id, "x"), target(p.id, "bluesky")]);
        const first = target(p.id, "x", {
          status: "published",
          permalink: "https://x.com/i/1",
          published_at: T0 + 5,
        });
        // One event per network written, as the publisher announces them.
        const writtenBy: NetworkId[][] = [];
        const announce = (_: PostRecord, written: ReadonlySet<NetworkId>) => {
          writtenBy.push([...written]);
          return { events: [...written].map(() => event(u.id)) };
        };
        await store.finishTargets(p.id, [first], T0 + 5, announce);
        // Another attempt of the same post (an instance that took it over) comes late with its own outcome,
        // beside an outcome for a network still pending: only that one is written and announced.
        const late = target(p.id, "x", {
          status: "published",
          permalink: "https://x.com/i/2",
          published_at: T0 + 9,
        });
        const bluesky = target(p.id, "bluesky", { status: "failed", error: "Bluesky: refused" });
        const settled = await store.finishTargets(p.id, [late, bluesky], T0 + 9, announce);
        expect(settled).toMatchObject({ status: "published", published_at: T0 + 5 });
        expect(await store.getTargets(p.id)).toEqual([first, bluesky]);
        expect(writtenBy).toEqual([["x"], ["bluesky"]]);
        // A failed target is as final: a late "published" does not revive it.
        const lateBluesky = target(p.id, "bluesky", { status: "published", permalink: "https://bsky.app/2" });
        await store.finishTargets(p.id, [lateBluesky], T0 + 12, announce);
        expect((await store.getTargets(p.id))[1]).toEqual(bluesky);
        expect(writtenBy).toEqual([["x"], ["bluesky"], []]);
        expect(await store.listEvents(u.id)).toHaveLength(2);
      });

      it("claimDueTargets hands out due retries once, earliest first, only of publishing or published posts", async () => {
        const u = await user();
        const p = post(u.id, { status: "publishing", platforms: ["x", "bluesky"] });
        await store.insertPost(p, [
          target(p.id, "x", { next_attempt_at: T0 + 2_000, attempts: 1 }),
          target(p.id, "bluesky", { next_attempt_at: T0 + 1_000, attempts: 2 }),
        ]);
        const d = post(u.id, { status: "draft" });
        await store.insertPost(d, [target(d.id, "x", { next_attempt_at: T0 })]);
        expect(await store.nextTargetAttemptAt()).toBe(T0);
        expect(await store.claimDueTargets(T0 + 500, 10)).toEqual([]);
        const claimed = await store.claimDueTargets(T0 + 5_000, 10);
        expect(
          claimed.map((c) => [c.post.id, c.target.platform, c.target.attempts, c.target.in_flight]),
        ).toEqual([
          [p.id, "bluesky", 3, true],
          [p.id, "x", 2, true],
        ]);
        expect(await store.claimDueTargets(T0 + 5_000, 10)).toEqual([]);
      });

      it("releaseInterruptedTargets marks attempts cut off before a time as of unknown outcome and due now", async () => {
        const u = await user();
        const p = post(u.id, { status: "publishing", platforms: ["x", "bluesky"] });
        await store.insertPost(p, [target(p.id, "x"), target(p.id, "bluesky")]);
        expect(await store.oldestAttemptInFlight()).toBeNull();
        await store.beginTargetAttempts(p.id, ["x"], T0);
        await store.beginTargetAttempts(p.id, ["bluesky"], T0 + 10_000);
        expect(await store.oldestAttemptInFlight()).toBe(T0);
        expect(await store.releaseInterruptedTargets(T0 + 5_000, T0 + 20_000)).toBe(1);
        expect(await store.oldestAttemptInFlight()).toBe(T0 + 10_000);
        const [x, bluesky] = await store.getTargets(p.id);
        expect(x).toMatchObject({
          in_flight: false,
          outcome_unknown: true,
          next_attempt_at: T0 + 20_000,
          attempts: 1,
        });
        expect(bluesky).toMatchObject({ in_flight: true, outcome_unknown: false });
        expect(await store.nextTargetAttemptAt()).toBe(T0 + 20_000);
      });

      it("saveTargetStep keeps a publish's progress on the attempt in flight, through a crash and the next attempt", async () => {
        const u = await user();
        const p = post(u.id, { mode: "live", status: "publishing", platforms: ["instagram", "threads"] });
        await store.insertPost(p, [target(p.id, "instagram"), target(p.id, "threads")]);
        // Not in flight: nothing is saved.
        expect(await store.saveTargetStep(p.id, "instagram", 0, '{"container":"1"}')).toBe(false);
        await store.beginTargetAttempts(p.id, ["instagram"], T0);
        expect(await store.saveTargetStep(p.id, "instagram", 2, '{"container":"1"}')).toBe(false);
        expect(await store.saveTargetStep(p.id, "instagram", 1, '{"container":"17"}')).toBe(true);
        expect(await store.saveTargetStep("post_missing", "instagram", 1, "{}")).toBe(false);
        const [instagram, threads] = await store.getTargets(p.id);
        expect(instagram).toMatchObject({ in_flight: true, publish_step: '{"container":"17"}' });
        expect(threads!.publish_step).toBeNull();
        // A crash: the step outlives the attempt, and the next attempt starts with it.
        expect(await store.releaseInterruptedTargets(T0 + 1, T0 + 5)).toBe(1);
        expect(await store.saveTargetStep(p.id, "instagram", 1, '{"container":"99"}')).toBe(false);
        const [claimed] = await store.claimDueTargets(T0 + 5, 10);
        expect(claimed!.target).toMatchObject({
          platform: "instagram",
          attempts: 2,
          outcome_unknown: true,
          publish_step: '{"container":"17"}',
        });
        expect(await store.saveTargetStep(p.id, "instagram", 2, '{"container":"17","sent":true}')).toBe(true);
        // The outcome written replaces it (here: cleared once published).
        const done = {
          ...claimed!.target,
          status: "published" as const,
          in_flight: false,
          publish_step: null,
        };
        await store.finishTargets(p.id, [done], T0 + 9);
        expect((await store.getTargets(p.id))[0]).toEqual(done);
        const kept = { ...threads!, next_attempt_at: T0 + 60_000, publish_step: '{"container":"5"}' };
        await store.finishTargets(p.id, [kept], T0 + 10);
        expect((await store.getTargets(p.id))[1]).toEqual(kept);
      });

      it("recentAttemptTimes lists an account's attempts since a time, per user, mode and network", async () => {
        const u = await user();
        const other = await user();
        const live = post(u.id, { mode: "live", status: "publishing", platforms: ["telegram"] });
        const live2 = post(u.id, { mode: "live", status: "publishing", platforms: ["telegram"] });
        const sandbox = post(u.id, { mode: "test", status: "publishing", platforms: ["telegram"] });
        const theirs = post(other.id, { mode: "live", status: "publishing", platforms: ["telegram"] });
        for (const p of [live, live2, sandbox, theirs]) await store.insertPost(p, [target(p.id, "telegram")]);
        await store.beginTargetAttempts(live.id, ["telegram"], T0);
        await store.beginTargetAttempts(live2.id, ["telegram"], T0 + 3_000);
        await store.beginTargetAttempts(sandbox.id, ["telegram"], T0 + 1_000);
        await store.beginTargetAttempts(theirs.id, ["telegram"], T0 + 2_000);
        expect(await store.recentAttemptTimes(u.id, "live", "telegram", T0)).toEqual([T0, T0 + 3_000]);
        expect(await store.recentAttemptTimes(u.id, "live", "telegram", T0 + 1)).toEqual([T0 + 3_000]);
        expect(await store.recentAttemptTimes(u.id, "live", "discord", 0)).toEqual([]);
      });

      it("metrics reads are claimed when due and leased; scheduleMetricsRead sets the next", async () => {
        const u = await user();
        const p = post(u.id, { mode: "live", status: "published", platforms: ["bluesky", "x"] });
        await store.insertPost(p, [
          target(p.id, "bluesky", { status: "published", metrics_due_at: T0 + 300_000 }),
          target(p.id, "x", { status: "pending", metrics_due_at: T0 }),
        ]);
        expect(await store.nextMetricsReadAt()).toBe(T0 + 300_000);
        expect(await store.claimDueMetricReads(T0, T0 + 600_000, 10)).toEqual([]);
        const [claimed, ...rest] = await store.claimDueMetricReads(T0 + 300_000, T0 + 900_000, 10);
        expect(rest).toEqual([]);
        expect(claimed).toMatchObject({
          post: { id: p.id },
          target: { platform: "bluesky", metrics_due_at: T0 + 900_000 },
        });
        expect(await store.claimDueMetricReads(T0 + 300_000, T0 + 900_000, 10)).toEqual([]);
        await store.scheduleMetricsRead(p.id, "bluesky", T0 + 3_600_000, 1);
        expect((await store.getTargets(p.id))[0]).toMatchObject({
          metrics_due_at: T0 + 3_600_000,
          metrics_reads: 1,
        });
        await store.scheduleMetricsRead(p.id, "bluesky", null, 5);
        expect(await store.nextMetricsReadAt()).toBeNull();
      });
    });

    describe("a shared store (several instances)", () => {
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
        const counts = await Promise.all(
          Array.from({ length: 25 }, () => store.countKeyRequest!("key_a", T0)),
        );
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

    describe("metrics and analytics reads", () => {
      it("reportMetrics never lowers a figure; null for a target that does not exist", async () => {
        const u = await user();
        const p = post(u.id, { status: "published" });
        await store.insertPost(p, [target(p.id, "x", { status: "published" })]);
        expect(
          await store.reportMetrics(p.id, "x", { reach: 100, likes: 5, comments: 2, shares: 1 }),
        ).toMatchObject({
          reach: 100,
          likes: 5,
          comments: 2,
          shares: 1,
        });
        expect(
          await store.reportMetrics(p.id, "x", { reach: 50, likes: 9, comments: 0, shares: 1 }),
        ).toMatchObject({
          reach: 100,
          likes: 9,
          comments: 2,
          shares: 1,
        });
        expect((await store.getTargets(p.id))[0]).toMatchObject({
          reach: 100,
          likes: 9,
          comments: 2,
          shares: 1,
        });
        expect(
          await store.reportMetrics(p.id, "bluesky", { reach: 1, likes: 0, comments: 0, shares: 0 }),
        ).toBeNull();
        expect(
          await store.reportMetrics("post_missing", "x", { reach: 1, likes: 0, comments: 0, shares: 0 }),
        ).toBeNull();
      });

      it("sumTargetMetrics sums each post's targets by post id; posts without targets are absent", async () => {
        const u = await user();
        const two = post(u.id, { status: "published", platforms: ["x", "bluesky"] });
        const one = post(u.id, { status: "published" });
        await store.insertPost(two, [
          target(two.id, "x", { status: "published", reach: 100, likes: 5, comments: 2, shares: 1 }),
          target(two.id, "bluesky", { status: "published", reach: 20, likes: 1, comments: 0, shares: 3 }),
        ]);
        await store.insertPost(one, [target(one.id, "x", { status: "published", reach: 7, likes: 1 })]);
        const sums = await store.sumTargetMetrics([two.id, one.id, "post_missing"]);
        expect(sums.get(two.id)).toEqual({ reach: 120, likes: 6, comments: 2, shares: 4 });
        expect(sums.get(one.id)).toEqual({ reach: 7, likes: 1, comments: 0, shares: 0 });
        expect(sums.has("post_missing")).toBe(false);
        expect((await store.sumTargetMetrics([])).size).toBe(0);
      });

      it("listPublishedTargets and countPublishedPosts cover the user's published posts only", async () => {
        const a = await user();
        const b = await user();
        const published = post(a.id, { status: "published", platforms: ["x", "bluesky"] });
        const draft = post(a.id, { status: "draft" });
        const other = post(b.id, { status: "published" });
        await store.insertPost(published, [
          target(published.id, "x", { status: "published", reach: 3 }),
          target(published.id, "bluesky", { status: "failed" }),
        ]);
        await store.insertPost(draft, [target(draft.id, "x", { status: "failed" })]);
        await store.insertPost(other, [target(other.id, "x", { status: "published" })]);
        expect(await store.listPublishedTargets(a.id)).toEqual([
          target(published.id, "x", { status: "published", reach: 3 }),
        ]);
        expect(await store.countPublishedPosts(a.id)).toBe(1);
        expect(await store.countPublishedPosts(b.id)).toBe(1);
      });

      it("sumPublishedMetricsByPlatform sums and counts, per network, the published targets of the user's published posts", async () => {
        const a = await user();
        const b = await user();
        const first = post(a.id, { status: "published", platforms: ["x", "bluesky", "linkedin"] });
        const second = post(a.id, { status: "published", platforms: ["x"] });
        const scheduled = post(a.id, { status: "scheduled" });
        const other = post(b.id, { status: "published" });
        await store.insertPost(first, [
          target(first.id, "x", { status: "published", reach: 100, likes: 5, comments: 2, shares: 1 }),
          target(first.id, "bluesky", { status: "published", reach: 20, likes: 1, comments: 0, shares: 3 }),
          target(first.id, "linkedin", { status: "failed" }),
        ]);
        await store.insertPost(second, [
          target(second.id, "x", { status: "published", reach: 7, likes: 1, comments: 4, shares: 0 }),
        ]);
        await store.insertPost(scheduled, [target(scheduled.id, "x", { status: "pending", reach: 50 })]);
        await store.insertPost(other, [target(other.id, "x", { status: "published", reach: 1000 })]);
        const sums = await store.sumPublishedMetricsByPlatform(a.id);
        expect(sums.sort((l, r) => (l.platform < r.platform ? -1 : 1))).toEqual([
          { platform: "bluesky", posts: 1, reach: 20, likes: 1, comments: 0, shares: 3 },
          { platform: "x", posts: 2, reach: 107, likes: 6, comments: 6, shares: 1 },
        ]);
        expect(await store.sumPublishedMetricsByPlatform(b.id)).toEqual([
          { platform: "x", posts: 1, reach: 1000, likes: 0, comments: 0, shares: 0 },
        ]);
        expect(await store.sumPublishedMetricsByPlatform("user_nobody")).toEqual([]);
      });
    });

    describe("outbox and deliveries", () => {
      it("listEvents answers the user's events, oldest first", async () => {
        const a = await user();
        const b = await user();
        const p = post(a.id);
        const e1 = event(a.id, "post.scheduled");
        const e2 = event(a.id, "post.published");
        await store.insertPost(p, [], { events: [e1] });
        await store.appendEvents([e2, event(b.id)]);
        expect(await store.listEvents(a.id)).toEqual([e1, e2]);
      });

      it("an event creates one delivery per enabled endpoint of the user subscribed to its type, due at created", async () => {
        const a = await user();
        const b = await user();
        const subscribed = webhook(a.id, { events: ["post.published", "post.failed"] });
        const otherType = webhook(a.id, { events: ["post.failed"] });
        const disabled = webhook(a.id, { status: "disabled" });
        const otherUser = webhook(b.id);
        for (const w of [subscribed, otherType, disabled, otherUser]) await store.createWebhook(w);
        const e = event(a.id, "post.published");
        await store.appendEvents([e]);
        expect(await store.nextDeliveryAt()).toBe(e.created * 1000);
        expect(await store.claimDueDeliveries(e.created * 1000 - 1, T0 + 10_000, 10)).toEqual([]);
        const jobs = await store.claimDueDeliveries(e.created * 1000, e.created * 1000 + 15_000, 10);
        expect(jobs).toHaveLength(1);
        expect(jobs[0]!.webhook).toEqual(subscribed);
        expect(jobs[0]!.event).toEqual(e);
        expect(jobs[0]!.delivery).toMatchObject({
          event_id: e.id,
          webhook_id: subscribed.id,
          state: "pending",
          attempts: 0,
        });
      });

      it("events written with a post change (effects) create deliveries like appended ones", async () => {
        const u = await user();
        await store.createWebhook(webhook(u.id));
        const p = post(u.id, { status: "publishing" });
        await store.insertPost(p, []);
        await store.transitionPost(p.id, ["publishing"], { status: "published", published_at: T0 }, [], {
          events: [event(u.id)],
        });
        expect(await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10)).toHaveLength(1);
      });

      it("an event addressed to one endpoint (webhook_id) is delivered there only", async () => {
        const u = await user();
        const one = webhook(u.id, { events: ["post.failed"] });
        const two = webhook(u.id);
        await store.createWebhook(one);
        await store.createWebhook(two);
        await store.appendEvents([event(u.id, "post.published", { webhook_id: one.id })]);
        const jobs = await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10);
        expect(jobs.map((j) => j.webhook.id)).toEqual([one.id]);
      });

      it("a claimed delivery is leased: not handed out again until the lease ends", async () => {
        const u = await user();
        await store.createWebhook(webhook(u.id));
        await store.appendEvents([event(u.id)]);
        const [first] = await store.claimDueDeliveries(T0, T0 + 15_000, 10);
        expect(first).toBeDefined();
        expect(await store.claimDueDeliveries(T0 + 14_999, T0 + 30_000, 10)).toEqual([]);
        expect(await store.nextDeliveryAt()).toBe(T0 + 15_000);
        const again = await store.claimDueDeliveries(T0 + 15_000, T0 + 30_000, 10);
        expect(again.map((j) => j.delivery.id)).toEqual([first!.delivery.id]);
      });

      it("recordAttempt sets the delivery's state: delivered is never handed out again, a retry comes back when due", async () => {
        const u = await user();
        await store.createWebhook(webhook(u.id));
        await store.appendEvents([event(u.id), event(u.id)]);
        const [a, b] = await store.claimDueDeliveries(T0, T0 + 15_000, 10);
        const attempt = (job: typeof a, status: number | null) => ({
          id: newId("att", T0),
          delivery_id: job!.delivery.id,
          webhook_id: job!.webhook.id,
          event_id: job!.event.id,
          attempt: 1,
          at: T0,
          response_status: status,
          duration_ms: 12,
          error: status === null ? "connection refused" : null,
        });
        await store.recordAttempt(attempt(a, 200), { state: "delivered", next_attempt_at: null });
        await store.recordAttempt(attempt(b, null), { state: "pending", next_attempt_at: T0 + 5000 });
        expect(await store.nextDeliveryAt()).toBe(T0 + 5000);
        const retried = await store.claimDueDeliveries(T0 + 60_000, T0 + 75_000, 10);
        expect(retried.map((j) => j.delivery.id)).toEqual([b!.delivery.id]);
        expect(retried[0]!.delivery.attempts).toBe(1);
      });

      it("deleting an endpoint drops what was owed to it; webhooks are scoped to their user", async () => {
        const a = await user();
        const b = await user();
        const w = webhook(a.id);
        await store.createWebhook(w);
        expect(await store.getWebhook(b.id, w.id)).toBeNull();
        expect(await store.deleteWebhook(b.id, w.id)).toBe(false);
        expect(await store.listWebhooks(a.id)).toEqual([w]);
        await store.appendEvents([event(a.id)]);
        expect(await store.deleteWebhook(a.id, w.id)).toBe(true);
        expect(await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10)).toEqual([]);
        expect(await store.listWebhooks(a.id)).toEqual([]);
      });

      it("setWebhookStatus disables an endpoint: new events skip it", async () => {
        const u = await user();
        const w = webhook(u.id);
        await store.createWebhook(w);
        await store.setWebhookStatus(w.id, "disabled");
        expect((await store.getWebhook(u.id, w.id))!.status).toBe("disabled");
        await store.appendEvents([event(u.id)]);
        expect(await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10)).toEqual([]);
      });

      it("disabling an endpoint ends what it was still owed: nothing of it is due any more", async () => {
        const u = await user();
        const w = webhook(u.id);
        const other = webhook(u.id);
        await store.createWebhook(w);
        await store.createWebhook(other);
        await store.appendEvents([event(u.id)]);
        await store.setWebhookStatus(w.id, "disabled");
        const jobs = await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10);
        expect(jobs.map((j) => j.webhook.id)).toEqual([other.id]);
        await store.appendEvents([event(u.id, "post.published", { webhook_id: w.id })]);
        expect(await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10)).toEqual([]);
        expect(await store.nextDeliveryAt()).toBe(T0 + 20_000);
      });

      it("updateWebhook changes the owner's endpoint (never its secret); disabling ends what was owed, enabling owes only later events", async () => {
        const a = await user();
        const b = await user();
        const w = webhook(a.id);
        await store.createWebhook(w);
        expect(await store.updateWebhook(b.id, w.id, { status: "disabled" })).toBeNull();
        expect(await store.updateWebhook(a.id, "wh_missing", { status: "disabled" })).toBeNull();
        await store.appendEvents([event(a.id)]);
        expect(await store.updateWebhook(a.id, w.id, { status: "disabled" })).toEqual({
          ...w,
          status: "disabled",
        });
        expect(await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10)).toEqual([]);

        const patch = {
          status: "enabled" as const,
          url: "https://example.com/new",
          events: ["post.failed" as const, "post.published" as const],
        };
        const enabled = await store.updateWebhook(a.id, w.id, patch);
        expect(enabled).toEqual({ ...w, ...patch });
        expect(await store.getWebhook(a.id, w.id)).toEqual(enabled);
        expect(await store.updateWebhook(a.id, w.id, { url: undefined })).toEqual(enabled);
        // What was dropped while disabled stays dropped; a later event is owed to it.
        expect(await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10)).toEqual([]);
        await store.appendEvents([event(a.id, "post.failed")]);
        const jobs = await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10);
        expect(jobs.map((j) => j.webhook)).toEqual([enabled]);
      });

      it("listWebhookSecrets lists every user's endpoints; setWebhookSecret replaces a secret only where it is still the one expected", async () => {
        const a = await user();
        const b = await user();
        const wa = webhook(a.id);
        const wb = webhook(b.id, { secret: "v1.abcd1234.iv.ct.tag" });
        await store.createWebhook(wa);
        await store.createWebhook(wb);
        const listed = await store.listWebhookSecrets();
        expect(listed).toEqual(
          expect.arrayContaining([
            { id: wa.id, user_id: a.id, secret: wa.secret },
            { id: wb.id, user_id: b.id, secret: wb.secret },
          ]),
        );
        expect(await store.setWebhookSecret(wa.id, "v1.abcd1234.iv2.ct2.tag2", "whsec_other")).toBe(false);
        expect((await store.getWebhook(a.id, wa.id))!.secret).toBe(wa.secret);
        expect(await store.setWebhookSecret(wa.id, "v1.abcd1234.iv2.ct2.tag2", wa.secret)).toBe(true);
        expect(await store.getWebhook(a.id, wa.id)).toEqual({ ...wa, secret: "v1.abcd1234.iv2.ct2.tag2" });
        // What a delivery hands out is the value as kept now.
        await store.appendEvents([event(a.id)]);
        const [job] = await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10);
        expect(job!.webhook.secret).toBe("v1.abcd1234.iv2.ct2.tag2");
        expect(await store.setWebhookSecret("wh_missing", "x", "y")).toBe(false);
        expect((await store.getWebhook(b.id, wb.id))!.secret).toBe(wb.secret);
      });

      it("a claim leaves room per endpoint: at most perWebhook, counting those busy; other endpoints still get theirs", async () => {
        const u = await user();
        const slow = webhook(u.id);
        const fast = webhook(u.id);
        await store.createWebhook(slow);
        await store.createWebhook(fast);
        await store.appendEvents([1, 2, 3].map(() => event(u.id, "post.published", { webhook_id: slow.id })));
        await store.appendEvents([event(u.id, "post.published", { webhook_id: fast.id })]);
        const first = await store.claimDueDeliveries(T0, T0 + 15_000, 10, {
          perWebhook: 2,
          busy: { [slow.id]: 1 },
        });
        expect(first.map((j) => j.webhook.id).sort()).toEqual([fast.id, slow.id].sort());
        const second = await store.claimDueDeliveries(T0, T0 + 15_000, 10, { perWebhook: 2 });
        expect(second.map((j) => j.webhook.id)).toEqual([slow.id, slow.id]);
      });

      it("nextDeliveryAt can leave out endpoints that have no room", async () => {
        const u = await user();
        const busy = webhook(u.id);
        const idle = webhook(u.id);
        await store.createWebhook(busy);
        await store.createWebhook(idle);
        await store.appendEvents([event(u.id, "post.published", { webhook_id: busy.id })]);
        await store.appendEvents([
          event(u.id, "post.published", { webhook_id: idle.id, created: Math.floor(T0 / 1000) + 60 }),
        ]);
        expect(await store.nextDeliveryAt()).toBe(T0);
        expect(await store.nextDeliveryAt({ excludeWebhookIds: [busy.id] })).toBe(T0 + 60_000);
        expect(await store.nextDeliveryAt({ excludeWebhookIds: [busy.id, idle.id] })).toBeNull();
      });

      it("listAttempts answers one endpoint's attempts newest first, with the event type and when the delivery was due next; beforeId pages", async () => {
        const u = await user();
        const w = webhook(u.id, { events: ["post.published", "post.failed"] });
        const other = webhook(u.id);
        await store.createWebhook(w);
        await store.createWebhook(other);
        const published = event(u.id, "post.published");
        const failed = event(u.id, "post.failed");
        await store.appendEvents([published, failed]);
        const jobs = await store.claimDueDeliveries(T0, T0 + 15_000, 10);
        const ids: string[] = [];
        for (const [i, job] of jobs.entries()) {
          const id = newId("att", T0 + i);
          ids.push(id);
          const ok = job.webhook.id === other.id || job.event.type === "post.failed";
          await store.recordAttempt(
            {
              id,
              delivery_id: job.delivery.id,
              webhook_id: job.webhook.id,
              event_id: job.event.id,
              attempt: 1,
              at: T0 + i,
              response_status: ok ? 200 : 500,
              duration_ms: 3,
              error: ok ? null : "the endpoint answered 500",
            },
            ok
              ? { state: "delivered", next_attempt_at: null }
              : { state: "pending", next_attempt_at: T0 + 5000 },
          );
        }
        const mine = await store.listAttempts(w.id, { limit: 10 });
        expect(mine.map((a) => [a.event_type, a.response_status, a.next_attempt_at])).toEqual([
          ["post.failed", 200, null],
          ["post.published", 500, T0 + 5000],
        ]);
        expect(mine[1]).toMatchObject({
          webhook_id: w.id,
          event_id: published.id,
          attempt: 1,
          error: "the endpoint answered 500",
          duration_ms: 3,
        });
        const [newest] = await store.listAttempts(w.id, { limit: 1 });
        expect(await store.listAttempts(w.id, { limit: 10, beforeId: newest!.id })).toEqual([mine[1]]);
        expect(await store.listAttempts(other.id, { limit: 10 })).toHaveLength(1);
        expect(ids).toHaveLength(3);
        await store.deleteWebhook(u.id, w.id);
        expect(await store.listAttempts(w.id, { limit: 10 })).toEqual([]);
      });

      it("resendEvent owes the same event to the endpoint again, due now; unknown or another user's event: null", async () => {
        const a = await user();
        const b = await user();
        const w = webhook(a.id);
        await store.createWebhook(w);
        const mine = event(a.id);
        const theirs = event(b.id);
        await store.appendEvents([mine, theirs]);
        const [job] = await store.claimDueDeliveries(T0, T0 + 15_000, 10);
        await store.recordAttempt(
          {
            id: newId("att", T0),
            delivery_id: job!.delivery.id,
            webhook_id: w.id,
            event_id: mine.id,
            attempt: 1,
            at: T0,
            response_status: 200,
            duration_ms: 1,
            error: null,
          },
          { state: "delivered", next_attempt_at: null },
        );
        const resent = await store.resendEvent(w.id, mine.id, T0 + 60_000);
        expect(resent).toMatchObject({
          event_id: mine.id,
          webhook_id: w.id,
          state: "pending",
          attempts: 0,
          next_attempt_at: T0 + 60_000,
        });
        expect(resent!.id).not.toBe(job!.delivery.id);
        expect(await store.nextDeliveryAt()).toBe(T0 + 60_000);
        const [again] = await store.claimDueDeliveries(T0 + 60_000, T0 + 75_000, 10);
        expect(again).toMatchObject({ delivery: { id: resent!.id }, event: mine, webhook: w });
        expect(await store.resendEvent(w.id, theirs.id, T0)).toBeNull();
        expect(await store.resendEvent(w.id, "evt_missing", T0)).toBeNull();
        expect(await store.resendEvent("wh_missing", mine.id, T0)).toBeNull();
      });
    });

    describe("retention", () => {
      it("pruneDeliveryHistory removes old events nothing is owed for, with their deliveries and attempts; owed and recent ones stay", async () => {
        const u = await user();
        const w = webhook(u.id, { events: ["post.published"] });
        await store.createWebhook(w);
        const old = Math.floor(T0 / 1000) - 3600;
        const delivered = event(u.id, "post.published", { created: old });
        const failed = event(u.id, "post.published", { created: old });
        const owed = event(u.id, "post.published", { created: old });
        const unheard = event(u.id, "post.failed", { created: old });
        const recent = event(u.id, "post.published");
        await store.appendEvents([delivered, failed, owed, unheard, recent]);
        const jobs = await store.claimDueDeliveries(T0, T0 + 15_000, 10);
        const byEvent = new Map(jobs.map((j) => [j.event.id, j]));
        const record = async (eventId: string, state: "delivered" | "failed" | "pending") => {
          const job = byEvent.get(eventId)!;
          await store.recordAttempt(
            {
              id: newId("att", T0),
              delivery_id: job.delivery.id,
              webhook_id: w.id,
              event_id: eventId,
              attempt: 1,
              at: T0,
              response_status: state === "delivered" ? 200 : 500,
              duration_ms: 5,
              error: state === "delivered" ? null : "the endpoint answered 500",
            },
            { state, next_attempt_at: state === "pending" ? T0 + 5000 : null },
          );
        };
        await record(delivered.id, "delivered");
        await record(failed.id, "failed");
        await record(owed.id, "pending");
        await record(recent.id, "delivered");

        expect(await store.pruneDeliveryHistory(T0 - 60_000, 100)).toBe(3);
        expect((await store.listEvents(u.id)).map((e) => e.id)).toEqual([owed.id, recent.id]);
        const attempts = await store.listAttempts(w.id, { limit: 10 });
        expect(attempts.map((a) => a.event_id).sort()).toEqual([owed.id, recent.id].sort());
        // What is still owed is still delivered.
        const retry = await store.claimDueDeliveries(T0 + 5000, T0 + 20_000, 10);
        expect(retry.map((j) => j.event.id)).toEqual([owed.id]);
        expect(await store.pruneDeliveryHistory(T0 - 60_000, 100)).toBe(0);
      });

      it("pruneDeliveryHistory removes at most `limit` events a call, oldest first", async () => {
        const u = await user();
        const base = Math.floor(T0 / 1000) - 3600;
        const events = [3, 1, 2].map((n) => event(u.id, "post.failed", { created: base + n }));
        await store.appendEvents(events);
        expect(await store.pruneDeliveryHistory(T0, 2)).toBe(2);
        expect((await store.listEvents(u.id)).map((e) => e.created)).toEqual([base + 3]);
        expect(await store.pruneDeliveryHistory(T0, 2)).toBe(1);
        expect(await store.pruneDeliveryHistory(T0, 2)).toBe(0);
      });
    });

    describe("daily analytics", () => {
      it("settleAnalyticsDay writes a day's events and marks it settled once; an earlier or the same day writes nothing", async () => {
        const u = await user();
        const other = await user();
        const w = webhook(u.id, { events: ["analytics.daily"] });
        await store.createWebhook(w);
        expect(await store.lastAnalyticsDay(u.id)).toBeNull();
        const daily = (date: string) => ({
          id: newId("evt", T0),
          user_id: u.id,
          type: "analytics.daily" as const,
          created: Math.floor(T0 / 1000),
          data: { totalReach: 0, engagementRate: 0, postsPublished: 0, followers: 0, perPlatform: [], date },
        });
        expect(await store.settleAnalyticsDay(u.id, "2026-06-14", [daily("2026-06-14")])).toBe(true);
        expect(await store.settleAnalyticsDay(u.id, "2026-06-14", [daily("2026-06-14")])).toBe(false);
        expect(await store.settleAnalyticsDay(u.id, "2026-06-13", [daily("2026-06-13")])).toBe(false);
        expect(await store.settleAnalyticsDay(u.id, "2026-06-15", [])).toBe(true);
        expect(await store.lastAnalyticsDay(u.id)).toBe("2026-06-15");
        expect(await store.lastAnalyticsDay(other.id)).toBeNull();
        const events = await store.listEvents(u.id);
        expect(events.map((e) => (e.data as { date: string }).date)).toEqual(["2026-06-14"]);
        // Written like any event: owed to the endpoint that listens for it.
        const jobs = await store.claimDueDeliveries(T0 + 1000, T0 + 20_000, 10);
        expect(jobs.map((j) => [j.webhook.id, j.event.id])).toEqual([[w.id, events[0]!.id]]);
      });

      it("of concurrent settlements of one day exactly one writes", async () => {
        const u = await user();
        const results = await Promise.all(
          Array.from({ length: 5 }, () => store.settleAnalyticsDay(u.id, "2026-06-14", [])),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      });
    });

    describe("idempotency keys", () => {
      const claim = (userId: string, key: string, at: number, fingerprint = "POST /api/v1/posts abc") => ({
        user_id: userId,
        key,
        fingerprint,
        status: null,
        body: null,
        created_at: at,
        expires_at: at + 300_000,
      });

      it("beginIdempotentRequest claims a free key (null) and otherwise answers the record there, unchanged", async () => {
        const u = await user();
        expect(await store.beginIdempotentRequest(claim(u.id, "k", T0))).toBeNull();
        expect(await store.beginIdempotentRequest(claim(u.id, "k", T0 + 1, "other"))).toEqual(
          claim(u.id, "k", T0),
        );
        await store.completeIdempotentRequest(u.id, "k", {
          status: 201,
          body: '{"id":"post_1"}',
          expires_at: T0 + 86_400_000,
        });
        expect(await store.beginIdempotentRequest(claim(u.id, "k", T0 + 2))).toEqual({
          ...claim(u.id, "k", T0),
          status: 201,
          body: '{"id":"post_1"}',
          expires_at: T0 + 86_400_000,
        });
      });

      it("of concurrent claims of one key exactly one succeeds", async () => {
        const u = await user();
        const results = await Promise.all(
          Array.from({ length: 10 }, () => store.beginIdempotentRequest(claim(u.id, "race", T0))),
        );
        expect(results.filter((r) => r === null)).toHaveLength(1);
      });

      it("keys are per user, and an expired record is replaced", async () => {
        const a = await user();
        const b = await user();
        expect(await store.beginIdempotentRequest(claim(a.id, "k", T0))).toBeNull();
        expect(await store.beginIdempotentRequest(claim(b.id, "k", T0))).toBeNull();
        expect(await store.beginIdempotentRequest(claim(a.id, "k", T0 + 299_999))).not.toBeNull();
        expect(await store.beginIdempotentRequest(claim(a.id, "k", T0 + 300_000, "new"))).toBeNull();
        expect((await store.beginIdempotentRequest(claim(a.id, "k", T0 + 300_001)))!.fingerprint).toBe("new");
      });

      it("releaseIdempotentRequest frees the key", async () => {
        const u = await user();
        await store.beginIdempotentRequest(claim(u.id, "k", T0));
        await store.releaseIdempotentRequest(u.id, "k");
        expect(await store.beginIdempotentRequest(claim(u.id, "k", T0 + 1))).toBeNull();
      });

      /** The record a keyed request keeps as its answer, written through Effects.idempotency. */
      const answer = (userId: string, key: string, status: number, body: unknown) => ({
        ...claim(userId, key, T0),
        status,
        body: JSON.stringify(body),
        expires_at: T0 + 86_400_000,
      });
      /** What a retry of the claimed key finds: the answer (replay), or null when the key is free. */
      const retry = (userId: string, key: string) => store.beginIdempotentRequest(claim(userId, key, T0 + 1));

      it("insertPost that claims its key: takes a free or expired key, and with a live record writes nothing and throws", async () => {
        const u = await user();
        const claiming = (key: string, p: PostRecord, at = T0) => ({
          ...answer(u.id, key, 201, p),
          created_at: at,
          claim: true as const,
        });
        const first = post(u.id, { status: "draft", scheduled_at: null });
        await store.insertPost(first, [target(first.id)], { idempotency: claiming("free", first) });
        const { claim: _, ...kept } = claiming("free", first);
        expect(await store.findIdempotentRequest(u.id, "free", T0 + 1)).toEqual(kept);

        // Taken by a finished request, and by one in flight: nothing of the second post is written.
        await store.beginIdempotentRequest(claim(u.id, "in-flight", T0));
        for (const key of ["free", "in-flight"]) {
          const second = post(u.id, { status: "draft", scheduled_at: null });
          await expect(
            store.insertPost(second, [target(second.id)], { idempotency: claiming(key, second, T0 + 1) }),
          ).rejects.toBeInstanceOf(IdempotencyKeyTaken);
          expect(await store.getPost(u.id, second.id)).toBeNull();
          expect(await store.getTargets(second.id)).toEqual([]);
        }
        expect((await store.findIdempotentRequest(u.id, "free", T0 + 1))!.body).toBe(JSON.stringify(first));
        expect(await store.countPostsCreatedSince(u.id, 0)).toBe(1);

        // An expired record no longer holds the key; findIdempotentRequest no longer sees it.
        const late = T0 + 300_000;
        expect(await store.findIdempotentRequest(u.id, "in-flight", late)).toBeNull();
        const third = post(u.id, { status: "draft", scheduled_at: null });
        await store.insertPost(third, [target(third.id)], {
          idempotency: claiming("in-flight", third, late),
        });
        expect((await store.findIdempotentRequest(u.id, "in-flight", late))!.status).toBe(201);
      });

      it("of concurrent inserts that claim one key exactly one writes its post", async () => {
        const u = await user();
        const posts = Array.from({ length: 5 }, () => post(u.id, { status: "draft", scheduled_at: null }));
        const results = await Promise.allSettled(
          posts.map((p) =>
            store.insertPost(p, [target(p.id)], {
              idempotency: { ...answer(u.id, "race", 201, p), claim: true },
            }),
          ),
        );
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        for (const r of results) {
          if (r.status === "rejected") expect(r.reason).toBeInstanceOf(IdempotencyKeyTaken);
        }
        expect(await store.countPostsCreatedSince(u.id, 0)).toBe(1);
      });

      it("every write that takes Effects stores the keyed answer in its own step: a retry finds the answer", async () => {
        const u = await user();
        const keys = [
          "insertPost",
          "transitionPost",
          "deletePost",
          "putAccount",
          "deleteAccount",
          "reportMetrics",
          "insertMedia",
          "createWebhook",
          "appendEvents",
          "resendEvent",
          "deleteWebhook",
        ];
        for (const key of keys) expect(await store.beginIdempotentRequest(claim(u.id, key, T0))).toBeNull();
        const p = post(u.id, { status: "draft", scheduled_at: null });
        await store.insertPost(p, [target(p.id)], { idempotency: answer(u.id, "insertPost", 201, p) });
        const published = target(p.id, "x", { status: "published", published_at: T0 });
        const seen: PostRecord[] = [];
        const moved = await store.transitionPost(
          p.id,
          ["draft"],
          { status: "published" },
          [published],
          (r) => {
            seen.push(r);
            return { events: [event(u.id)], idempotency: answer(u.id, "transitionPost", 200, r) };
          },
        );
        expect(seen).toEqual([moved]);
        await store.reportMetrics(p.id, "x", { reach: 9, likes: 1, comments: 0, shares: 0 }, (t) => ({
          idempotency: answer(u.id, "reportMetrics", 200, t),
        }));
        await store.deletePost(u.id, p.id, (r) => ({ idempotency: answer(u.id, "deletePost", 200, r.id) }));
        const account: AccountRecord = {
          user_id: u.id,
          mode: "test",
          platform: "x",
          handle: "@u",
          followers: 0,
          health: "healthy",
          connected_at: T0,
          credentials: null,
        };
        await store.putAccount(account, { idempotency: answer(u.id, "putAccount", 201, account) });
        await store.deleteAccount(u.id, "test", "x", {
          idempotency: answer(u.id, "deleteAccount", 200, "x"),
        });
        const media = {
          id: newId("med", T0),
          user_id: u.id,
          url: "https://example.com/a.png",
          type: "image/png",
          size: 0,
          status: "ready" as const,
          path: null,
          created_at: T0,
        };
        await store.insertMedia(media, { idempotency: answer(u.id, "insertMedia", 201, media.id) });
        const w = webhook(u.id);
        await store.createWebhook(w, { idempotency: answer(u.id, "createWebhook", 201, w.id) });
        const test = event(u.id, "post.published", { webhook_id: w.id });
        await store.appendEvents([test], { idempotency: answer(u.id, "appendEvents", 202, test.id) });
        const resent = await store.resendEvent(w.id, test.id, T0, (d) => ({
          idempotency: answer(u.id, "resendEvent", 202, d.id),
        }));
        await store.deleteWebhook(u.id, w.id, { idempotency: answer(u.id, "deleteWebhook", 200, w.id) });

        const answers: Record<string, [number, unknown]> = {
          insertPost: [201, p],
          transitionPost: [200, { ...p, status: "published" }],
          reportMetrics: [200, { ...published, reach: 9, likes: 1 }],
          deletePost: [200, p.id],
          putAccount: [201, account],
          deleteAccount: [200, "x"],
          insertMedia: [201, media.id],
          createWebhook: [201, w.id],
          appendEvents: [202, test.id],
          resendEvent: [202, resent!.id],
          deleteWebhook: [200, w.id],
        };
        for (const key of keys) {
          const found = await retry(u.id, key);
          const [status, body] = answers[key]!;
          expect({ ...found, body: JSON.parse(found?.body ?? "null") }, key).toEqual({
            ...answer(u.id, key, status, null),
            body,
          });
        }
      });

      it("a write that makes no change stores no answer: its key stays in flight", async () => {
        const u = await user();
        const keys = ["refused transition", "missing post", "missing account", "missing webhook", "failed"];
        for (const key of keys) expect(await store.beginIdempotentRequest(claim(u.id, key, T0))).toBeNull();
        const p = post(u.id);
        await store.insertPost(p, [target(p.id)]);
        let called = false;
        const refused = await store.transitionPost(
          p.id,
          ["draft"],
          { status: "publishing" },
          undefined,
          () => {
            called = true;
            return { idempotency: answer(u.id, "refused transition", 200, "moved") };
          },
        );
        expect(refused).toBeNull();
        expect(called).toBe(false);
        await store.deletePost(u.id, "post_missing", () => ({
          idempotency: answer(u.id, "missing post", 200, "deleted"),
        }));
        await store.deleteAccount(u.id, "test", "tiktok", {
          idempotency: answer(u.id, "missing account", 200, "deleted"),
        });
        await store.deleteWebhook(u.id, "wh_missing", {
          idempotency: answer(u.id, "missing webhook", 200, "deleted"),
        });
        // The insert fails (the id is taken): the whole step is undone, the answer with it.
        await expect(
          store.insertPost(p, [target(p.id)], { idempotency: answer(u.id, "failed", 201, p) }),
        ).rejects.toThrow();
        for (const key of keys) expect(await retry(u.id, key), key).toEqual(claim(u.id, key, T0));
      });

      it("an answer is stored even when its in-flight claim is gone", async () => {
        const u = await user();
        const p = post(u.id);
        await store.insertPost(p, [target(p.id)], { idempotency: answer(u.id, "lost claim", 201, p) });
        expect(await retry(u.id, "lost claim")).toEqual(answer(u.id, "lost claim", 201, p));
      });

      it("completeIdempotentRequest stores the answer sent over the one the change wrote", async () => {
        const u = await user();
        await store.beginIdempotentRequest(claim(u.id, "k", T0));
        const p = post(u.id);
        await store.insertPost(p, [target(p.id)], { idempotency: answer(u.id, "k", 201, p) });
        await store.completeIdempotentRequest(u.id, "k", {
          status: 201,
          body: '{"sent":true}',
          expires_at: T0 + 86_400_000,
        });
        expect(await retry(u.id, "k")).toEqual({ ...answer(u.id, "k", 201, null), body: '{"sent":true}' });
      });

      it("releaseIdempotentRequest leaves a key whose change was written: it keeps its answer", async () => {
        const u = await user();
        await store.beginIdempotentRequest(claim(u.id, "k", T0));
        const p = post(u.id);
        await store.insertPost(p, [target(p.id)], { idempotency: answer(u.id, "k", 201, p) });
        await store.releaseIdempotentRequest(u.id, "k");
        expect(await retry(u.id, "k")).toEqual(answer(u.id, "k", 201, p));
      });

      it("releaseInterruptedIdempotentRequests frees every key still in flight and keeps the answered ones", async () => {
        if (store.shared) return; // see "shared stores free nothing in flight at start"
        const a = await user();
        const b = await user();
        for (const [userId, key] of [
          [a.id, "cut"],
          [b.id, "cut"],
          [a.id, "answered"],
          [a.id, "written"],
        ] as const) {
          expect(await store.beginIdempotentRequest(claim(userId, key, T0))).toBeNull();
        }
        await store.completeIdempotentRequest(a.id, "answered", {
          status: 400,
          body: '{"error":"no"}',
          expires_at: T0 + 86_400_000,
        });
        const p = post(a.id);
        await store.insertPost(p, [target(p.id)], { idempotency: answer(a.id, "written", 201, p) });
        expect(await store.releaseInterruptedIdempotentRequests()).toBe(2);
        expect(await retry(a.id, "cut")).toBeNull();
        expect(await retry(b.id, "cut")).toBeNull();
        expect((await retry(a.id, "answered"))!.status).toBe(400);
        expect(await retry(a.id, "written")).toEqual(answer(a.id, "written", 201, p));
      });
    });

    describe("media and health", () => {
      it("media is scoped to its user", async () => {
        const a = await user();
        const b = await user();
        const media = {
          id: newId("med", T0),
          user_id: a.id,
          url: "https://example.com/a.png",
          type: "image/png",
          size: 0,
          status: "ready" as const,
          path: null,
          created_at: T0,
        };
        await store.insertMedia(media);
        expect(await store.getMedia(a.id, media.id)).toEqual(media);
        expect(await store.getMedia(b.id, media.id)).toBeNull();
      });

      it("ping answers while the store is open", async () => {
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });
  });
}
