import { describe, expect, it } from "vitest";
import { NETWORK_IDS } from "../src/contract/networks.ts";
import { newId } from "../src/ids.ts";
import { API_KEY_PATTERN, generateApiKey, hashApiKey, keyHint } from "../src/keys.ts";
import { provisionUser } from "../src/provision.ts";
import { sandboxPermalink } from "../src/service/sandbox/permalinks.ts";
import { MemoryStore } from "../src/store/memory.ts";

describe("API keys", () => {
  it("are sp_test_ + 40 base62 characters, all different", () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey()));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^sp_test_[0-9A-Za-z]{40}$/);
      expect(API_KEY_PATTERN.test(key)).toBe(true);
    }
    expect(generateApiKey("live")).toMatch(/^sp_live_/);
  });

  it("are stored as SHA-256 hex and shown as a hint that cannot be used", async () => {
    const { createHash } = await import("node:crypto");
    expect(await hashApiKey("sp_test_abc")).toBe(createHash("sha256").update("sp_test_abc").digest("hex"));
    expect(await hashApiKey("sp_test_abc")).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashApiKey("sp_test_abc")).not.toBe(await hashApiKey("sp_test_abd"));
    const key = generateApiKey();
    expect(keyHint(key)).toBe(`sp_test_…${key.slice(-4)}`);
  });
});

describe("ids", () => {
  it("are prefixed ULIDs that sort in creation order, even within one millisecond or when time steps back", () => {
    const made = [newId("post", 1000), newId("post", 1000), newId("post", 999), newId("post", 1001)];
    expect([...made].sort()).toEqual(made);
    for (const id of made) expect(id).toMatch(/^post_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});

describe("provisionUser", () => {
  it("creates the user, a hashed test key and the sandbox accounts asked for", async () => {
    const store = new MemoryStore();
    const { user, apiKey, accounts } = await provisionUser(store, {
      plan: "creator",
      email: "ada@example.com",
      studio: "Analytical Engines",
      accounts: ["x", { platform: "bluesky", followers: 42 }],
      now: 5,
    });
    expect(await store.getUser(user.id)).toEqual(user);
    const [key] = await store.listKeys(user.id);
    expect(key).toMatchObject({
      hash: await hashApiKey(apiKey),
      mode: "test",
      revoked_at: null,
      created_at: 5,
    });
    expect(JSON.stringify(await store.listKeys(user.id))).not.toContain(apiKey);
    expect(accounts.map((a) => [a.platform, a.handle, a.followers, a.health])).toEqual([
      ["x", "analytical_engines", 0, "healthy"],
      ["bluesky", "analytical-engines.bsky.social", 42, "healthy"],
    ]);
    expect(await store.listAccounts(user.id, "test")).toEqual(accounts);
  });

  it("refuses more accounts than the plan's profiles, a network twice, and a malformed key", async () => {
    const store = new MemoryStore();
    await expect(
      provisionUser(store, { plan: "free", accounts: ["x", "bluesky", "linkedin", "threads"] }),
    ).rejects.toThrow(/free plan allows 3 connected profiles/);
    await expect(provisionUser(store, { accounts: ["x", "x"] })).rejects.toThrow(/once/);
    await expect(provisionUser(store, { key: "sp_test_short" })).rejects.toThrow(/key must be/);
  });

  it("uses a given key as is", async () => {
    const store = new MemoryStore();
    const key = `sp_test_${"k".repeat(32)}`;
    const { apiKey } = await provisionUser(store, { key });
    expect(apiKey).toBe(key);
    expect(await store.findKeyByHash(await hashApiKey(key))).not.toBeNull();
  });
});

describe("sandbox permalinks", () => {
  it("are a pure function of post id, network and handle", async () => {
    for (const platform of NETWORK_IDS) {
      const a = await sandboxPermalink("post_01J0000000000000000000000A", platform, "acme");
      expect(await sandboxPermalink("post_01J0000000000000000000000A", platform, "acme")).toBe(a);
      expect(await sandboxPermalink("post_01J0000000000000000000000B", platform, "acme")).not.toBe(a);
      expect(new URL(a).protocol).toBe("https:");
    }
  });

  it("keep a handle safe in the URL", async () => {
    const link = await sandboxPermalink("post_1", "x", "@we/ird name");
    expect(link.startsWith("https://x.com/we%2Fird%20name/status/")).toBe(true);
  });
});
