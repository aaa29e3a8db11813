import { measure, type Store } from "@socialpub/core";
import { SAMPLE_PNG } from "@socialpub/core/testing";
import { XFake, type XFakeUser } from "@socialpub/networks/x/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FrontProxy } from "./support/front-proxy.ts";
import { grantCases, grantSecrets } from "./support/grant-cases.ts";
import { appSettings, type LiveOAuthServer, startLiveOAuthServer } from "./support/live-oauth-server.ts";
import { until } from "./support/oauth-browser.ts";
import { sampleVideo } from "./support/sample-video.ts";
import { grantOnXConsentPage } from "./support/x-consent.ts";

/*
 * OAuth connect and publishing to X end to end: a server on a loopback port, behind the address it is
 * told is its public one, connects an X account through the X fake's authorize page as a person does
 * (open the authorize URL, press "Authorize app" on the consent page, follow the redirect back to the
 * server's callback), then publishes through it. The fake checks PKCE, rotates refresh tokens, and
 * checks every API request and answer against x-openapi.json.
 */

const LIVE_KEY = `sp_live_${"XOAuthEndToEndKey0123456789abcdef".repeat(2)}`;

let x: XFake;
let live: LiveOAuthServer;
let front: FrontProxy;
let store: Store;
let userId: string;
let alice: XFakeUser;

beforeAll(async () => {
  x = await XFake.start();
  const app = x.addApp();
  alice = x.addUser({ username: "alice_ships", followers: 1234 });
  x.signIn(alice);
  live = await startLiveOAuthServer(LIVE_KEY, {
    x: { apiUrl: x.url, authorizeUrl: `${x.url}/i/oauth2/authorize`, ...appSettings(app) },
  });
  ({ front, store, userId } = live);
}, 60_000);

afterAll(async () => {
  await live?.close();
  await x?.close();
});

const call = (method: string, path: string, body?: unknown) => live.call(method, path, body);

async function connectX() {
  const started = await call("POST", "/accounts/connect", { platform: "x" });
  expect(started.status).toBe(201);
  return started.body as { authorize_url: string; state: string; expires_at: string };
}

async function targetOf(postId: string) {
  return (await call("GET", `/posts/${postId}/targets`)).body.data[0];
}

describe("X: OAuth connect and live publishing", () => {
  it("a connect answers the authorize URL (PKCE S256, the registered redirect URL); declining connects nothing", async () => {
    const started = await connectX();
    expect(Object.keys(started).sort()).toEqual(["authorize_url", "expires_at", "platform", "state"]);
    const url = new URL(started.authorize_url);
    expect(url.origin + url.pathname).toBe(`${x.url}/i/oauth2/authorize`);
    expect(url.searchParams.get("redirect_uri")).toBe(`${front.url}/api/v1/accounts/callback/x`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("state")).toBe(started.state);
    expect(url.searchParams.get("scope")).toContain("offline.access");
    const minutes = (Date.parse(started.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);

    const declined = await grantOnXConsentPage(started.authorize_url, "deny");
    expect(declined.status).toBe(400);
    expect(declined.type).toMatch(/^text\/html/);
    expect(declined.html).toMatch(/Access was not granted on X&#39;s page/);
    expect((await call("GET", "/accounts")).body.data).toEqual([]);
  });

  it("granting access connects the account: tokens sealed, account.connected written, the state single-use", async () => {
    const started = await connectX();
    const page = await grantOnXConsentPage(started.authorize_url);
    expect(page.status, page.html).toBe(200);
    expect(page.html).toMatch(/@alice_ships is connected/);
    expect((await call("GET", "/accounts")).body.data).toEqual([
      { platform: "x", handle: "@alice_ships", followers: 1234, health: "healthy" },
    ]);
    expect(x.oauth.tokenRequests).toEqual([{ grantType: "authorization_code", status: 200 }]);
    const events = await store.listEvents(userId);
    expect(events.map((e) => e.type)).toEqual(["account.connected"]);
    const stored = await store.getAccount(userId, "live", "x");
    expect(stored!.credentials).toMatch(/^v1\./);
    expect(stored!.credentials).not.toContain(x.oauth.grants[0]!.accessToken);

    const again = await fetch(page.callback);
    expect(again.status).toBe(400);
    expect(await again.text()).toMatch(/already used, is older than 15 minutes/);
    const forged = await fetch(`${front.url}/api/v1/accounts/callback/x?state=forged&code=abc`);
    expect(forged.status).toBe(400);
  });

  it("publishes text, and text with an image uploaded to X first", async () => {
    const text = await call("POST", "/posts", { caption: "Shipping socialpub to X", platforms: ["x"] });
    expect(text).toMatchObject({ status: 201, body: { status: "published" } });
    const published = await targetOf(text.body.id);
    expect(published.status).toBe("published");
    const post = x.posts.at(-1)!;
    expect(post).toMatchObject({ userId: alice.id, text: "Shipping socialpub to X", mediaIds: [] });
    expect(published.permalink).toBe(`https://x.com/i/web/status/${post.id}`);

    const upload = await fetch(`${front.url}/api/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${LIVE_KEY}`, "content-type": "image/png" },
      body: SAMPLE_PNG,
    });
    const media = (await upload.json()) as { id: string };
    expect(upload.status).toBe(201);
    const withImage = await call("POST", "/posts", {
      caption: "With a picture",
      platforms: ["x"],
      media: media.id,
    });
    expect(withImage).toMatchObject({ status: 201, body: { status: "published" } });
    const imagePost = x.posts.at(-1)!;
    expect(imagePost.mediaIds).toHaveLength(1);
    expect(x.media.get(imagePost.mediaIds[0]!)).toMatchObject({
      type: "image/png",
      bytes: SAMPLE_PNG.length,
    });
  });

  it("publishes a video: uploaded in segments, processed by X, then posted with its media id", async () => {
    const video = sampleVideo(200 * 1024);
    const media = await live.upload(video, "video/mp4");
    const posted = await call("POST", "/posts", { caption: "A video for X", platforms: ["x"], media });
    expect(posted.status).toBe(201);
    const done = await until(
      async () => targetOf(posted.body.id),
      (t) => t.status !== "pending",
      60_000,
    );
    expect(done.status).toBe("published");
    const made = x.posts.at(-1)!;
    expect(made).toMatchObject({ text: "A video for X", mediaIds: [expect.any(String)] });
    expect(x.chunked.uploads.get(made.mediaIds[0]!)).toMatchObject({
      category: "tweet_video",
      totalBytes: video.length,
      state: "succeeded",
    });
    expect(done.permalink).toBe(`https://x.com/i/web/status/${made.id}`);
  });

  it("text is fitted by X's weights: a long URL counts 23, CJK characters 2, and X takes what is sent", async () => {
    const url = `https://example.com/notes/${"v".repeat(150)}`;
    const withUrl = `${"Shipped ".repeat(30).trim()} ${url}`; // 239 + 1 + 23 = 263 on X
    const linked = await call("POST", "/posts", { caption: withUrl, platforms: ["x"] });
    expect(linked.body.status).toBe("published");
    expect(x.posts.at(-1)!.text).toBe(withUrl);
    const cjk = await call("POST", "/posts", { caption: "今日は良い天気".repeat(30), platforms: ["x"] });
    expect(cjk.body.status).toBe("published");
    const sent = x.posts.at(-1)!.text;
    expect(sent.endsWith("…")).toBe(true);
    // Characters of 2 and the … of 2, cut between words: X counts at most 280 (the fake weighs as X does).
    expect(measure(sent, "weighted")).toBeLessThanOrEqual(280);
    expect([...sent].length).toBeGreaterThan(135);
  });

  const cases = grantCases(
    {
      platform: "x",
      post: () => ({}),
      expireAccessTokens: () => x.expireAccessTokens(),
      tokenRequests: () => x.oauth.tokenRequests,
      limit: {
        useUp: () => {
          x.postsPerWindow = x.posts.filter((p) => p.userId === alice.id).length;
        },
        restore: () => {
          x.postsPerWindow = 100;
        },
        error: /X's limit for this account or app is used up until/,
      },
      // The user removes the app's access on X; tokens last a minute, so the next publish refreshes.
      revokeAccess: () => {
        x.oauth.accessTokenSeconds = 60;
        x.revokeAccess(alice);
      },
      refusedError: /X refused the grant .*reconnect the X account/,
      secrets: () => grantSecrets(x.oauth.grants),
    },
    () => live,
  );
  // X rotates the refresh token on every refresh: the lapse case's second refresh works only if the
  // rotated one was kept.
  it(cases.lapse.name, cases.lapse.run);

  it("a token with less than five minutes left is refreshed before use, once for concurrent posts", async () => {
    // From now on X hands out one-minute tokens: every publish finds its token about to end.
    x.oauth.accessTokenSeconds = 60;
    x.expireAccessTokens();
    const refreshes = () => x.oauth.tokenRequests.filter((r) => r.grantType === "refresh_token").length;
    const first = refreshes();
    expect(
      (await call("POST", "/posts", { caption: "One-minute token", platforms: ["x"] })).body.status,
    ).toBe("published");
    // This refresh spends the refresh token stored by the previous one: it works only if the rotated
    // token was kept.
    const next = await call("POST", "/posts", { caption: "And once more", platforms: ["x"] });
    expect(next.body.status).toBe("published");
    expect(refreshes()).toBe(first + 2);
    const both = await Promise.all([
      call("POST", "/posts", { caption: "Together one", platforms: ["x"] }),
      call("POST", "/posts", { caption: "Together two", platforms: ["x"] }),
    ]);
    expect(both.map((b) => b.body.status)).toEqual(["published", "published"]);
    expect(refreshes()).toBe(first + 3);
    expect(x.oauth.tokenRequests.every((r) => r.status === 200)).toBe(true);
  });

  for (const c of [cases.limit, cases.refused, cases.secrets]) it(c.name, c.run);

  it("X saw nothing that strays from x-openapi.json", () => {
    expect(x.specViolations).toEqual([]);
  });
});

describe("X without the app's settings", () => {
  it("answers 400 naming the missing settings", async () => {
    const bare = await startLiveOAuthServer(LIVE_KEY, {}, { withoutPublicUrl: true });
    try {
      const res = await bare.call("POST", "/accounts/connect", { platform: "x" });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(
        /SOCIALPUB_PUBLIC_URL and SOCIALPUB_X_CLIENT_ID and SOCIALPUB_X_CLIENT_SECRET/,
      );
    } finally {
      await bare.close();
    }
  });
});
