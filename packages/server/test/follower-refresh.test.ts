import { randomBytes } from "node:crypto";
import { CredentialKeyring, createService, MemoryStore, provisionUser, type Service } from "@socialpub/core";
import { FakeClock } from "@socialpub/core/testing";
import { telegramAdapter } from "@socialpub/networks";
import { TelegramFake } from "@socialpub/networks/telegram/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * GET /accounts keeps a live account's followers current: a count older than 6 hours is read again
 * from the network in the background after the listing answers, and not before. Against the Telegram
 * fake, whose chat member count the test changes, on a fake clock.
 */

const LIVE_KEY = `sp_live_${"FollowerRefreshTestKey0123456789".repeat(2)}`;
const HOUR = 3_600_000;

let telegram: TelegramFake;
let service: Service;
const clock = new FakeClock(Date.UTC(2026, 10, 1, 12));
let chat: { id: number };
let token: string;

const call = (path: string, init: RequestInit = {}) =>
  service.fetch(
    new Request(`http://localhost/api/v1${path}`, {
      ...init,
      headers: { authorization: `Bearer ${LIVE_KEY}`, "content-type": "application/json" },
    }),
  );

async function followers(): Promise<number> {
  const res = await call("/accounts");
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { platform: string; followers: number }[] };
  return body.data.find((a) => a.platform === "telegram")?.followers ?? -1;
}

const countReads = () => telegram.requests.filter((r) => r.method === "getChatMemberCount").length;

/** Waits (bounded) until the listing shows `expected` followers. */
async function untilFollowers(expected: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await followers()) !== expected) {
    if (Date.now() > deadline) throw new Error(`followers never became ${expected}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

beforeAll(async () => {
  telegram = await TelegramFake.start({ checkSpec: true });
  const bot = telegram.addBot({ username: "socialpub_bot" });
  token = bot.token;
  chat = telegram.addChat({
    type: "channel",
    title: "Release notes",
    username: "release_notes",
    memberCount: 40,
  });
  telegram.setMember(chat.id, bot.id, "administrator", { canPost: true });
  const store = new MemoryStore();
  service = createService({
    store,
    clock,
    logger: { error: () => {}, warn: () => {}, info: () => {} },
    rateLimit: false,
    liveAdapters: { telegram: telegramAdapter({ apiUrl: telegram.url }) },
    credentialKeyring: new CredentialKeyring(randomBytes(32)),
    allowPrivateWebhookUrls: true,
  });
  await service.start();
  await provisionUser(store, { accounts: [], key: LIVE_KEY, plan: "studio", now: clock.now() });
  const res = await call("/accounts/connect", {
    method: "POST",
    body: JSON.stringify({ platform: "telegram", bot_token: token, chat: "@release_notes" }),
  });
  expect(res.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await service?.close();
  await telegram?.close();
});

describe("GET /accounts refreshes live followers", () => {
  it("reads the chat's member count again only once 6 hours have passed, once, in the background", async () => {
    expect(await followers()).toBe(40);
    const readsAtConnect = countReads();
    expect(readsAtConnect).toBe(1);

    telegram.setMemberCount(chat.id, 57);
    await clock.advance(6 * HOUR - 1000);
    expect(await followers()).toBe(40);
    expect(countReads()).toBe(readsAtConnect);

    await clock.advance(2000);
    // The listing that finds the count stale still answers the old one; the read follows it.
    const [first, second] = await Promise.all([followers(), followers()]);
    expect(first).toBe(40);
    expect(second).toBe(40);
    await untilFollowers(57);
    expect(countReads()).toBe(readsAtConnect + 1);

    // Freshly read: the next change is not read until another 6 hours have passed.
    telegram.setMemberCount(chat.id, 60);
    await clock.advance(HOUR);
    expect(await followers()).toBe(57);
    expect(countReads()).toBe(readsAtConnect + 1);
    await clock.advance(6 * HOUR);
    await followers();
    await untilFollowers(60);
    expect(telegram.specViolations).toEqual([]);
  }, 60_000);
});
