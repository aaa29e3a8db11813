import { generateApiKey, hashApiKey, newId, type PostRecord, provisionUser } from "@socialpub/core";
import { afterEach, describe, expect, it } from "vitest";
import { KnownKeys } from "../src/store/sqlite/known-keys.ts";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/sqlite-store.ts";
import { tempDir } from "./support/temp-dir.ts";

/*
 * The SQLite store keeps the keys it has seen authenticate (known-keys.ts) so a call does not read its
 * key and user again. What a user relies on stays exact: a revoked key is refused on its next call,
 * whichever process revoked it, and each call sees the posts version as it is now.
 */

const MONTH = "2026-11";
const opened: { stores: SqliteStore[]; dir: ReturnType<typeof tempDir> }[] = [];
afterEach(async () => {
  for (const { stores, dir } of opened.splice(0)) {
    for (const store of stores) await store.close();
    dir.remove();
  }
});

/** The server's store and a second one on the same file, as `socialpub-server keys …` opens it. */
async function twoStoresOnOneFile() {
  const dir = tempDir();
  const path = dir.file("keys.db");
  const server = openSqliteStore(path);
  const cli = openSqliteStore(path);
  opened.push({ stores: [server, cli], dir });
  const { user, apiKey } = await provisionUser(server, { plan: "studio" });
  const hash = await hashApiKey(apiKey);
  const keyId = (await server.listKeys(user.id))[0]!.id;
  return { server, cli, user, hash, keyId };
}

const draft = (userId: string): PostRecord => ({
  id: newId("post", Date.now()),
  user_id: userId,
  mode: "test",
  caption: "a draft",
  platforms: ["x"],
  status: "draft",
  media: null,
  scheduled_at: null,
  published_at: null,
  created_at: Date.now(),
});

describe("keys known to the SQLite store", () => {
  it("a key revoked by another process is refused on its next call", async () => {
    const { server, cli, user, hash, keyId } = await twoStoresOnOneFile();
    expect((await server.authorizeCall(hash, MONTH))?.user.id).toBe(user.id);
    expect((await server.authorizeCall(hash, MONTH))?.calls).toBe(2);
    expect(await cli.revokeKey(keyId, Date.now())).toBe(true);
    expect(await server.authorizeCall(hash, MONTH)).toBeNull();
    expect(await server.getApiCalls(user.id, MONTH)).toBe(2);
  });

  it("a key revoked through this store is refused on its next call, one counted in the revocation's own transaction too", async () => {
    const { server, user, hash, keyId } = await twoStoresOnOneFile();
    expect((await server.authorizeCall(hash, MONTH))?.user.id).toBe(user.id);
    // Asked for in one turn, after the revocation: both run in one transaction, the revocation first.
    const [revoked, call] = await Promise.all([
      server.revokeKey(keyId, Date.now()),
      server.authorizeCall(hash, MONTH),
    ]);
    expect(revoked).toBe(true);
    expect(call).toBeNull();
    expect(await server.authorizeCall(hash, MONTH)).toBeNull();
    expect(await server.getApiCalls(user.id, MONTH)).toBe(1);
  });

  it("keys another process writes meanwhile do not disturb a known key, and a key created later is found", async () => {
    const { server, cli, user, hash } = await twoStoresOnOneFile();
    expect((await server.authorizeCall(hash, MONTH))?.calls).toBe(1);
    const other = await provisionUser(cli, { plan: "free" });
    expect((await server.authorizeCall(hash, MONTH))?.user.id).toBe(user.id);
    const found = await server.authorizeCall(await hashApiKey(other.apiKey), MONTH);
    expect(found?.user).toEqual(other.user);
    expect(await server.authorizeCall(await hashApiKey(generateApiKey("test")), MONTH)).toBeNull();
  });

  it("each call sees the posts version as it is now, whichever process moved it", async () => {
    const { server, cli, user, hash } = await twoStoresOnOneFile();
    const first = (await server.authorizeCall(hash, MONTH))!.postsVersion;
    await server.insertPost(draft(user.id), []);
    const second = (await server.authorizeCall(hash, MONTH))!.postsVersion;
    expect(second).toBeGreaterThan(first);
    await cli.insertPost(draft(user.id), []);
    expect((await server.authorizeCall(hash, MONTH))!.postsVersion).toBeGreaterThan(second);
  });

  it("what is kept is frozen (every call of a key shares it) and bounded", () => {
    let version = 1;
    const keys = new KnownKeys(() => version, 2);
    keys.checkOtherWriters();
    const record = (n: number) => ({
      key: {
        id: `key_${n}`,
        user_id: "usr_1",
        hash: `h${n}`,
        mode: "test" as const,
        hint: "",
        created_at: 0,
        revoked_at: null,
      },
      user: {
        id: "usr_1",
        email: "a@example.com",
        name: "A",
        studio: "S",
        plan: "free" as const,
        created_at: 0,
      },
      postsVersion: 1,
    });
    const kept = keys.remember("h1", record(1));
    expect(Object.isFrozen(kept.key) && Object.isFrozen(kept.user)).toBe(true);
    keys.remember("h2", record(2));
    expect(keys.get("h1")).toBeDefined();
    keys.remember("h3", record(3));
    expect([keys.get("h1"), keys.get("h2"), keys.get("h3")?.key.id]).toEqual([undefined, undefined, "key_3"]);
    keys.checkOtherWriters();
    expect(keys.get("h3")).toBeDefined();
    version = 2;
    keys.checkOtherWriters();
    expect(keys.get("h3")).toBeUndefined();
  });
});
