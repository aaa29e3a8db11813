import { randomBytes } from "node:crypto";
import {
  type AccountRecord,
  accountBinding,
  CredentialKeyring,
  createService,
  type Logger,
  provisionUser,
  type Store,
} from "@socialpub/core";
import { FakeClock } from "@socialpub/core/testing";
import { expect } from "vitest";

/*
 * Accounts connected before grant_ends_at was kept hold none, though their sealed credentials say when
 * the grant ends. One case, run on each store: such accounts stored as they were then (credentials,
 * no end), a service started on the store with its secret key, and the sweep of ending grants then
 * treating them as it treats accounts connected today.
 */

const DAY = 86_400_000;
const TOKEN = "EAAG-page-token-never-shown";

export async function grantBackfillCase(store: Store): Promise<void> {
  const clock = new FakeClock(Date.UTC(2026, 10, 20, 9));
  const keyring = new CredentialKeyring(randomBytes(32));
  const lines: string[] = [];
  const logger: Logger = {
    error: (fields, message) => lines.push(`error ${message} ${JSON.stringify(fields)}`),
    warn: (fields, message) => lines.push(`warn ${message} ${JSON.stringify(fields)}`),
    info: (fields, message) => lines.push(`info ${message} ${JSON.stringify(fields)}`),
  };
  const { user } = await provisionUser(store, { accounts: [], plan: "studio", now: clock.now() });
  const now = clock.now();
  const stored = (
    platform: AccountRecord["platform"],
    credentials: Record<string, unknown>,
  ): AccountRecord => ({
    user_id: user.id,
    mode: "live",
    platform,
    handle: `${platform} of Dee`,
    followers: 10,
    health: "healthy",
    connected_at: now - 50 * DAY,
    credentials: keyring.seal(JSON.stringify(credentials), accountBinding(user.id, "live", platform)),
  });
  // A Page token that ends in 3 days, an Instagram one in 30, a LinkedIn grant that is refreshed.
  await store.putAccount(
    stored("facebook", { access_token: TOKEN, refresh_token: null, expires_at: now + 3 * DAY }),
  );
  await store.putAccount(
    stored("instagram", { access_token: TOKEN, refresh_token: null, expires_at: now + 30 * DAY }),
  );
  await store.putAccount(
    stored("linkedin", { access_token: TOKEN, refresh_token: "AQX-refresh", expires_at: now + 30 * DAY }),
  );
  const get = async (platform: AccountRecord["platform"]) =>
    (await store.getAccount(user.id, "live", platform))!;
  const before = await get("facebook");

  const service = createService({ store, clock, logger, credentialKeyring: keyring });
  await service.start();
  try {
    await clock.advance(0);
    await until(async () => (await get("facebook")).health === "expiring");
    // Only the end is written: the credentials and everything else are as they were.
    expect(await get("facebook")).toEqual({ ...before, health: "expiring", grant_ends_at: now + 3 * DAY });
    expect(await get("instagram")).toMatchObject({ health: "healthy", grant_ends_at: now + 30 * DAY });
    expect("grant_ends_at" in (await get("linkedin"))).toBe(false);
    expect(lines.filter((l) => l.includes("kept when grants"))).toEqual([
      expect.stringContaining('"filled":2'),
    ]);

    // The Instagram grant now ends on its own, untouched: expiring at day 23, reauth_required at day 30.
    await clock.advance(23 * DAY + 1);
    expect((await get("instagram")).health).toBe("expiring");
    await clock.advance(7 * DAY);
    expect((await get("instagram")).health).toBe("reauth_required");
  } finally {
    await service.close();
  }

  // A second start finds nothing to fill and changes nothing.
  const filledBefore = [await get("facebook"), await get("instagram"), await get("linkedin")];
  const again = createService({ store, clock, logger, credentialKeyring: keyring });
  await again.start();
  await again.close();
  expect([await get("facebook"), await get("instagram"), await get("linkedin")]).toEqual(filledBefore);
  expect(lines.filter((l) => l.includes("kept when grants")).length).toBe(1);
  for (const line of lines) expect(line).not.toContain(TOKEN);
}

async function until(check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("the account's health never changed");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
