import type { Store } from "@socialpub/core";
import { SAMPLE_PNG } from "@socialpub/core/testing";
import { FacebookFake, type FacebookFakeUser } from "@socialpub/networks/facebook/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FrontProxy } from "./support/front-proxy.ts";
import { appSettings, type LiveOAuthServer, startLiveOAuthServer } from "./support/live-oauth-server.ts";
import { grantInBrowser } from "./support/oauth-browser.ts";
import { sampleVideo } from "./support/sample-video.ts";

/*
 * Facebook Pages end to end: a server behind its public address connects a Page through the Facebook
 * fake's login dialog as a person does (code → short-lived user token → 60-day token → the Page's
 * token), then posts text to the Page's feed and a photo. Meta gives no refresh token: a grant within
 * 7 days of its end connects as `expiring`, and a token Meta invalidated turns the account
 * reauth_required.
 */

const LIVE_KEY = `sp_live_${"FacebookOAuthEndToEndKey01234567".repeat(2)}`;

let facebook: FacebookFake;
let live: LiveOAuthServer;
let front: FrontProxy;
let store: Store;
let userId: string;
let dee: FacebookFakeUser;
/** Every answer the API gave; checked for tokens at the end. */
let seen: string[];

beforeAll(async () => {
  facebook = await FacebookFake.start();
  const app = facebook.addApp();
  dee = facebook.addUser({
    name: "Dee Maker",
    pages: [
      { name: "Dee's Bakery", followers: 900 },
      { name: "Socialpub News", followers: 5000 },
    ],
  });
  facebook.signIn(dee);
  live = await startLiveOAuthServer(LIVE_KEY, {
    facebook: { apiUrl: facebook.url, authorizeUrl: facebook.url, ...appSettings(app) },
  });
  ({ front, store, userId, seen } = live);
}, 60_000);

afterAll(async () => {
  await live?.close();
  await facebook?.close();
});

const call = (method: string, path: string, body?: unknown) => live.call(method, path, body);

async function connect(fields: Record<string, unknown> = {}) {
  const started = await call("POST", "/accounts/connect", { platform: "facebook", ...fields });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return started.body as { authorize_url: string };
}

async function targetOf(postId: string) {
  return (await call("GET", `/posts/${postId}/targets`)).body.data[0];
}

describe("Facebook Pages: OAuth connect and live posts", () => {
  it("connects the first Page, or the Page named, through Facebook's login dialog", async () => {
    const url = new URL((await connect()).authorize_url);
    expect(url.origin + url.pathname).toBe(`${facebook.url}/v23.0/dialog/oauth`);
    expect(url.searchParams.get("scope")).toBe(
      "pages_show_list,pages_manage_posts,pages_read_engagement,pages_manage_engagement",
    );
    expect(url.searchParams.get("redirect_uri")).toBe(`${front.url}/api/v1/accounts/callback/facebook`);
    const first = await grantInBrowser(url.href);
    expect(first.status, first.html).toBe(200);
    expect((await call("GET", "/accounts")).body.data).toEqual([
      { platform: "facebook", handle: "Dee's Bakery", followers: 900, health: "healthy" },
    ]);
    const missing = await grantInBrowser((await connect({ page: "Nope" })).authorize_url);
    expect(missing.status).toBe(400);
    expect(missing.html).toMatch(
      /no Page &quot;Nope&quot;; the Pages given are &quot;Dee&#39;s Bakery&quot;/,
    );
    const named = await grantInBrowser((await connect({ page: "socialpub news" })).authorize_url);
    expect(named.status, named.html).toBe(200);
    expect((await call("GET", "/accounts")).body.data[0]).toMatchObject({
      handle: "Socialpub News",
      followers: 5000,
    });
    expect(facebook.oauth.tokenRequests.slice(0, 2)).toEqual([
      { grantType: "authorization_code", status: 200 },
      { grantType: "fb_exchange_token", status: 200 },
    ]);
  });

  it("posts text to the Page's feed and a photo with the text as its caption", async () => {
    const text = await call("POST", "/posts", { caption: "Fresh bread at 8", platforms: ["facebook"] });
    expect(text).toMatchObject({ status: 201, body: { status: "published" } });
    const page = dee.pages[1]!;
    const post = facebook.posts.at(-1)!;
    expect(post).toMatchObject({ pageId: page.id, message: "Fresh bread at 8", photo: null });
    expect((await targetOf(text.body.id)).permalink).toBe(`https://www.facebook.com/${post.id}`);

    const upload = await fetch(`${front.url}/api/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${LIVE_KEY}`, "content-type": "image/png" },
      body: SAMPLE_PNG,
    });
    const media = ((await upload.json()) as { id: string }).id;
    const photo = await call("POST", "/posts", {
      caption: "Look at this loaf",
      platforms: ["facebook"],
      media,
    });
    expect(photo.body.status, JSON.stringify(await targetOf(photo.body.id))).toBe("published");
    expect(facebook.posts.at(-1)).toMatchObject({
      message: "Look at this loaf",
      photo: { type: "image/png", bytes: SAMPLE_PNG.length },
    });
  });

  it("posts a video with the text as its description; its permalink is the one Facebook gives", async () => {
    const video = sampleVideo(120 * 1024);
    const media = await live.upload(video, "video/mp4");
    const posted = await call("POST", "/posts", {
      caption: "The oven at work",
      platforms: ["facebook"],
      media,
    });
    expect(posted.body.status, JSON.stringify(await targetOf(posted.body.id))).toBe("published");
    const made = facebook.posts.at(-1)!;
    expect(made).toMatchObject({
      pageId: dee.pages[1]!.id,
      message: "The oven at work",
      video: { type: "video/mp4", bytes: video.length },
    });
    expect((await targetOf(posted.body.id)).permalink).toBe(
      `https://www.facebook.com/${made.pageId}/videos/${made.id}/`,
    );
  });

  it("a Page over Meta's limit waits for the time X-Business-Use-Case-Usage gives", async () => {
    facebook.postsPerHour = facebook.posts.length;
    const limited = await call("POST", "/posts", { caption: "One too many", platforms: ["facebook"] });
    const target = await targetOf(limited.body.id);
    expect(target.status).toBe("pending");
    expect(target.error).toMatch(/Facebook's limit for this Page or app is used up until .*code 32/);
    const until = Date.parse(/used up until (\S+);/.exec(target.error)![1]!);
    expect(until - Date.now()).toBeGreaterThan(11 * 60_000);
    facebook.postsPerHour = 200;
  });

  it("a 60-day grant within 7 days of its end connects as expiring, and still publishes", async () => {
    facebook.longLivedSeconds = 5 * 24 * 60 * 60;
    const page = await grantInBrowser((await connect({ page: "Socialpub News" })).authorize_url);
    expect(page.status, page.html).toBe(200);
    expect((await call("GET", "/accounts")).body.data[0]).toMatchObject({ health: "expiring" });
    expect(
      (await call("POST", "/posts", { caption: "Still here", platforms: ["facebook"] })).body.status,
    ).toBe("published");
  });

  it("a token Meta invalidated (code 190) turns the account reauth_required and sends account.disconnected", async () => {
    facebook.revokeAccess(dee);
    const refused = await call("POST", "/posts", {
      caption: "After removing the app",
      platforms: ["facebook"],
    });
    const target = await targetOf(refused.body.id);
    expect(target.status).toBe("failed");
    expect(target.error).toMatch(/Facebook does not accept the Page's token any more.*code 190/);
    expect((await call("GET", "/accounts")).body.data[0]).toMatchObject({ health: "reauth_required" });
    const types = (await store.listEvents(userId)).map((e) => e.type);
    expect(types.filter((t) => t === "account.disconnected")).toHaveLength(1);
  });

  it("never shows a token", async () => {
    const events = JSON.stringify(await store.listEvents(userId));
    const secrets = [...facebook.oauth.grants.map((g) => g.accessToken), ...facebook.pageTokens.keys()];
    for (const secret of secrets) {
      expect(events).not.toContain(secret);
      for (const answer of seen) expect(answer).not.toContain(secret);
    }
  });
});
