import { randomBytes } from "node:crypto";
import {
  type AccountRecord,
  accountBinding,
  CredentialKeyring,
  type NetworkId,
  provisionUser,
  type Store,
  webhookBinding,
} from "@socialpub/core";
import { expect, it } from "vitest";
import { resealCredentials } from "../../src/cli/admin/reseal.ts";
import { runCli } from "./cli-process.ts";

/*
 * `secrets reseal` on one kind of store (SQLite, PostgreSQL): credentials sealed under an old key are
 * sealed again under the new one, so a keyring holding only the new key opens every one of them.
 */

const key = () => randomBytes(32);

/** A database (its `--db` value) and a store opened on it. */
export interface ResealTarget {
  db: string;
  store: Store;
}

async function liveAccount(store: Store, keyring: CredentialKeyring, userId: string, platform: NetworkId) {
  const plaintext = JSON.stringify({ secret: `${platform}-secret-${randomBytes(6).toString("hex")}` });
  const account: AccountRecord = {
    user_id: userId,
    mode: "live",
    platform,
    handle: `${platform}-handle`,
    followers: 3,
    health: "healthy",
    connected_at: Date.now(),
    credentials: keyring.seal(plaintext, accountBinding(userId, "live", platform)),
  };
  await store.putAccount(account);
  return { account, plaintext };
}

async function credentialsOf(store: Store, account: AccountRecord): Promise<string> {
  return (await store.getAccount(account.user_id, account.mode, account.platform))!.credentials!;
}

const opens = (keyring: CredentialKeyring, account: AccountRecord, sealed: string) =>
  keyring.open(sealed, accountBinding(account.user_id, account.mode, account.platform));

export function resealCases(target: () => Promise<ResealTarget>): void {
  it("reseals every account under the current key; a keyring without the old key then opens them all", async () => {
    const { store } = await target();
    const [oldKey, newKey] = [key(), key()];
    const before = new CredentialKeyring(oldKey);
    const { user: ana } = await provisionUser(store, { email: "ana@example.com" });
    const { user: bo } = await provisionUser(store, {
      email: "bo@example.com",
      accounts: [{ platform: "x" }],
    });
    const made = [
      await liveAccount(store, before, ana.id, "bluesky"),
      await liveAccount(store, before, ana.id, "telegram"),
      await liveAccount(store, new CredentialKeyring(newKey), bo.id, "discord"),
    ];
    const rotated = new CredentialKeyring(newKey, [oldKey]);
    expect(await resealCredentials(store, rotated)).toEqual({ resealed: 2, current: 1, failed: [] });
    const onlyNew = new CredentialKeyring(newKey);
    for (const { account, plaintext } of made) {
      const sealed = await credentialsOf(store, account);
      expect(onlyNew.isStale(sealed)).toBe(false);
      expect(opens(onlyNew, account, sealed)).toBe(plaintext);
    }
    // Run again: nothing left to do.
    expect(await resealCredentials(store, rotated)).toEqual({ resealed: 0, current: 3, failed: [] });
  });

  it("names the accounts it cannot open (a key it was not given) and leaves them as they were", async () => {
    const { store } = await target();
    const [lostKey, newKey] = [key(), key()];
    const { user } = await provisionUser(store, { email: "cy@example.com" });
    const { account } = await liveAccount(store, new CredentialKeyring(lostKey), user.id, "bluesky");
    const sealed = await credentialsOf(store, account);
    const report = await resealCredentials(store, new CredentialKeyring(newKey));
    expect(report.resealed).toBe(0);
    expect(report.failed).toEqual([
      { account: "live bluesky account of cy@example.com", reason: expect.stringMatching(/was not given/) },
    ]);
    expect(await credentialsOf(store, account)).toBe(sealed);
  });

  it("a value replaced while it was resealed (a refreshed session) is read again, not overwritten", async () => {
    const { store } = await target();
    const [oldKey, newKey] = [key(), key()];
    const { user } = await provisionUser(store, { email: "di@example.com" });
    const { account } = await liveAccount(store, new CredentialKeyring(oldKey), user.id, "bluesky");
    const binding = accountBinding(user.id, "live", "bluesky");
    // A server still on the old key refreshes the session just after the value was read.
    const refreshed = new CredentialKeyring(oldKey).seal('{"session":"refreshed"}', binding);
    let replaced = false;
    const racing = new Proxy(store, {
      get(target, property) {
        if (property === "setAccountCredentials") {
          return async (...args: Parameters<Store["setAccountCredentials"]>) => {
            if (!replaced) {
              replaced = true;
              await target.setAccountCredentials(user.id, "live", "bluesky", refreshed);
            }
            return target.setAccountCredentials(...args);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const rotated = new CredentialKeyring(newKey, [oldKey]);
    expect(await resealCredentials(racing, rotated)).toEqual({ resealed: 1, current: 0, failed: [] });
    expect(opens(new CredentialKeyring(newKey), account, await credentialsOf(store, account))).toBe(
      '{"session":"refreshed"}',
    );
  });

  it("`secrets reseal` reads the keys as the server does and fails while any account is left under a key it lacks", async () => {
    const { store, db } = await target();
    const [oldKey, newKey] = [key(), key()];
    const { user } = await provisionUser(store, { email: "ed@example.com" });
    const { account, plaintext } = await liveAccount(
      store,
      new CredentialKeyring(oldKey),
      user.id,
      "telegram",
    );
    // A webhook endpoint whose signing secret the old key sealed follows the same rotation.
    const hookSecret = `whsec_${randomBytes(32).toString("base64")}`;
    const hook = { id: "wh_reseal", user_id: user.id };
    await store.createWebhook({
      ...hook,
      url: "https://example.com/hook",
      events: ["post.published"],
      secret: new CredentialKeyring(oldKey).seal(hookSecret, webhookBinding(user.id, hook.id)),
      status: "enabled",
      created_at: Date.now(),
    });
    const b64 = (k: Buffer) => k.toString("base64");

    const withoutOld = await runCli(["secrets", "reseal", "--db", db], { SOCIALPUB_SECRET_KEY: b64(newKey) });
    expect(withoutOld.code).toBe(1);
    expect(withoutOld.stderr).toMatch(/cannot reseal the live telegram account of ed@example\.com/);
    expect(withoutOld.stderr).toMatch(/keep the previous keys/);
    expect(withoutOld.stderr).toMatch(
      /cannot reseal the secret of webhook wh_reseal: the signing secret was sealed with key/,
    );

    const done = await runCli(["secrets", "reseal", "--db", db], {
      SOCIALPUB_SECRET_KEY: b64(newKey),
      SOCIALPUB_PREVIOUS_SECRET_KEYS: b64(oldKey),
    });
    expect(done.stderr).toBe("");
    expect(done.stdout).toMatch(/^Resealed 1 account credentials under key [0-9a-f]{8}; 0 already were\.$/m);
    expect(done.stdout).toMatch(/^Resealed 1 webhook signing secrets; 0 already were\.$/m);
    const hookSealed = (await store.getWebhook(user.id, hook.id))!.secret;
    expect(new CredentialKeyring(newKey).open(hookSealed, webhookBinding(user.id, hook.id))).toBe(hookSecret);
    expect(opens(new CredentialKeyring(newKey), account, await credentialsOf(store, account))).toBe(
      plaintext,
    );
    expect(`${withoutOld.stdout}${withoutOld.stderr}${done.stdout}`).not.toContain(plaintext);
    expect(`${withoutOld.stdout}${withoutOld.stderr}${done.stdout}`).not.toContain(hookSecret.slice(6));

    const noKey = await runCli(["secrets", "reseal", "--db", db], { SOCIALPUB_SECRET_KEY: "" });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/SOCIALPUB_SECRET_KEY/);
  }, 240_000);
}
