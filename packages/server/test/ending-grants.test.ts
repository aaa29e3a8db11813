import type { Store } from "@socialpub/core";
import { FakeClock } from "@socialpub/core/testing";
import { facebookAdapter } from "@socialpub/networks";
import { FacebookFake } from "@socialpub/networks/facebook/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LiveOAuthServer, startLiveOAuthServer } from "./support/live-oauth-server.ts";
import { grantInBrowser } from "./support/oauth-browser.ts";

/*
 * A grant we cannot refresh changes the account's health on its own: a Facebook Page connected with
 * Meta's long-lived token, here made to last 8 days, turns `expiring` when the server's clock passes
 * day 1 (7 days before the end) and `reauth_required`, with one account.disconnected, when the token
 * ends — with no request touching the account in between. Over HTTP, on a fake clock the server and
 * the Facebook fake share; the sweep's timer is what moves it.
 */

const LIVE_KEY = `sp_live_${"EndingGrantsSweepTestKey01234567".repeat(2)}`;
const DAY = 86_400_000;
const MINUTE = 60_000;

const clock = new FakeClock(Date.now());
let facebook: FacebookFake;
let live: LiveOAuthServer;
let store: Store;
let userId: string;

beforeAll(async () => {
  facebook = await FacebookFake.start({ now: () => clock.now() });
  const app = facebook.addApp();
  const dee = facebook.addUser({ name: "Dee Maker", pages: [{ name: "Dee's Bakery", followers: 900 }] });
  facebook.signIn(dee);
  live = await startLiveOAuthServer(
    LIVE_KEY,
    {},
    {
      clock,
      // The adapter counts the token's end from the same clock as the server and the fake.
      adapters: {
        facebook: facebookAdapter({
          apiUrl: facebook.url,
          authorizeUrl: facebook.url,
          clientId: app.clientId,
          clientSecret: app.clientSecret,
          now: () => clock.now(),
        }),
      },
    },
  );
  ({ store, userId } = live);
}, 60_000);

afterAll(async () => {
  await live?.close();
  await facebook?.close();
});

async function connectFacebook(): Promise<void> {
  const started = await live.call("POST", "/accounts/connect", { platform: "facebook" });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const page = await grantInBrowser(started.body.authorize_url);
  expect(page.status, page.html).toBe(200);
}

/** The account's health as stored: read without a request, so nothing but the sweep can change it. */
const storedHealth = async () => (await store.getAccount(userId, "live", "facebook"))!.health;
const listed = async () => (await live.call("GET", "/accounts")).body.data[0];
const disconnects = async () =>
  (await store.listEvents(userId)).filter((e) => e.type === "account.disconnected").length;

describe("grants we cannot refresh: the sweep", () => {
  it("turns an 8-day grant expiring once day 1 has passed and reauth_required when it ends, untouched", async () => {
    facebook.longLivedSeconds = (8 * DAY) / 1000;
    await connectFacebook();
    expect(await listed()).toMatchObject({ handle: "Dee's Bakery", health: "healthy" });

    await clock.advance(DAY - MINUTE);
    expect(await storedHealth()).toBe("healthy");
    await clock.advance(2 * MINUTE);
    expect(await storedHealth()).toBe("expiring");
    expect(await listed()).toMatchObject({ handle: "Dee's Bakery", health: "expiring" });
    // `expiring` is shown, not sent: the contract has no event for it.
    expect(await disconnects()).toBe(0);

    await clock.advance(7 * DAY - 2 * MINUTE);
    expect(await storedHealth()).toBe("expiring");
    await clock.advance(2 * MINUTE);
    expect(await storedHealth()).toBe("reauth_required");
    expect(await listed()).toMatchObject({ health: "reauth_required" });
    expect(await disconnects()).toBe(1);
  }, 60_000);

  it("a reconnect with a fresh 60-day grant is healthy, and the sweep waits for that grant's own day 53", async () => {
    facebook.longLivedSeconds = (60 * DAY) / 1000;
    await connectFacebook();
    expect(await listed()).toMatchObject({ health: "healthy" });
    await clock.advance(53 * DAY - MINUTE);
    expect(await storedHealth()).toBe("healthy");
    await clock.advance(2 * MINUTE);
    expect(await storedHealth()).toBe("expiring");
    expect(await disconnects()).toBe(1);
  }, 60_000);
});
