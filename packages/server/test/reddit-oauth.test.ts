import { SAMPLE_PNG } from "@socialpub/core/testing";
import { RedditFake, type RedditFakeUser } from "@socialpub/networks/reddit/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FrontProxy } from "./support/front-proxy.ts";
import { grantCases, grantSecrets } from "./support/grant-cases.ts";
import { appSettings, type LiveOAuthServer, startLiveOAuthServer } from "./support/live-oauth-server.ts";
import { grantInBrowser } from "./support/oauth-browser.ts";

/*
 * OAuth connect and posting to Reddit end to end: a server behind its public address connects a Reddit
 * account through the Reddit fake's consent page as a person does, with the subreddit chosen at
 * connect, then posts text, a link and an image through it with a descriptive User-Agent. The fake
 * keeps Reddit's habits: X-Ratelimit-* headers, 429 on a used-up window, RATELIMIT inside a 200.
 */

const LIVE_KEY = `sp_live_${"RedditOAuthEndToEndKey0123456789".repeat(2)}`;
const USER_AGENT = "server:socialpub-tests:0.1.0 (by /u/socialpub_ci)";

let reddit: RedditFake;
let live: LiveOAuthServer;
let front: FrontProxy;
let bea: RedditFakeUser;
/** Every answer the API gave; checked for tokens at the end. */

beforeAll(async () => {
  reddit = await RedditFake.start();
  const app = reddit.addApp();
  bea = reddit.addUser({ name: "bea_ships" });
  reddit.addSubreddit({ name: "socialpub", submissionType: "any", subscribers: 4321 });
  reddit.addSubreddit({ name: "TextOnly", submissionType: "self", subscribers: 10 });
  reddit.signIn(bea);
  live = await startLiveOAuthServer(LIVE_KEY, {
    reddit: { apiUrl: reddit.url, authorizeUrl: reddit.url, userAgent: USER_AGENT, ...appSettings(app) },
  });
  ({ front } = live);
}, 60_000);

afterAll(async () => {
  await live?.close();
  await reddit?.close();
});

const call = (method: string, path: string, body?: unknown) => live.call(method, path, body);

async function connect(fields: Record<string, unknown> = {}) {
  const started = await call("POST", "/accounts/connect", { platform: "reddit", ...fields });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return started.body as { authorize_url: string };
}

async function targetOf(postId: string) {
  return (await call("GET", `/posts/${postId}/targets`)).body.data[0];
}

describe("Reddit: OAuth connect with a subreddit, and live posts", () => {
  it("a connect answers Reddit's authorize URL (permanent, space-separated scopes, no PKCE)", async () => {
    const url = new URL((await connect({ subreddit: "r/socialpub" })).authorize_url);
    expect(url.origin + url.pathname).toBe(`${reddit.url}/api/v1/authorize`);
    expect(url.searchParams.get("duration")).toBe("permanent");
    expect(url.searchParams.get("scope")).toBe("identity read submit history");
    expect(url.searchParams.get("redirect_uri")).toBe(`${front.url}/api/v1/accounts/callback/reddit`);
    expect(url.searchParams.get("code_challenge")).toBeNull();
    const bad = await call("POST", "/accounts/connect", { platform: "reddit", subreddit: "no spaces here" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/subreddit must be a subreddit's name/);
  });

  it("a subreddit that does not exist connects nothing; without one, the account's profile is used", async () => {
    const missing = await grantInBrowser((await connect({ subreddit: "nosuchplace" })).authorize_url);
    expect(missing.status).toBe(400);
    expect(missing.html).toMatch(/Reddit has no subreddit r\/nosuchplace/);
    const profile = await grantInBrowser((await connect()).authorize_url);
    expect(profile.status, profile.html).toBe(200);
    expect((await call("GET", "/accounts")).body.data[0].handle).toBe("u/bea_ships in r/u_bea_ships");
  });

  it("connects to the chosen subreddit, with its subscribers as followers", async () => {
    const page = await grantInBrowser((await connect({ subreddit: "socialpub" })).authorize_url);
    expect(page.status, page.html).toBe(200);
    expect((await call("GET", "/accounts")).body.data).toEqual([
      { platform: "reddit", handle: "u/bea_ships in r/socialpub", followers: 4321, health: "healthy" },
    ]);
  });

  it("posts text (title from the first line, the rest as body), a link, and an image; with a descriptive User-Agent", async () => {
    const text = await call("POST", "/posts", {
      caption: "socialpub 2.0 is out\nIt posts to Reddit now.\nMore soon.",
      platforms: ["reddit"],
    });
    expect(text, JSON.stringify(text.body)).toMatchObject({ status: 201, body: { status: "published" } });
    const self = reddit.posts.at(-1)!;
    expect(self).toMatchObject({
      kind: "self",
      subreddit: "socialpub",
      title: "socialpub 2.0 is out",
      text: "It posts to Reddit now.\nMore soon.",
    });
    expect((await targetOf(text.body.id)).permalink).toBe(`https://www.reddit.com${self.permalink}`);

    const link = await call("POST", "/posts", {
      caption: "Release notes\nhttps://example.com/notes",
      platforms: ["reddit"],
    });
    expect(link.body.status, JSON.stringify(await targetOf(link.body.id))).toBe("published");
    expect(reddit.posts.at(-1)).toMatchObject({
      kind: "link",
      title: "Release notes",
      url: "https://example.com/notes",
    });

    const upload = await fetch(`${front.url}/api/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${LIVE_KEY}`, "content-type": "image/png" },
      body: SAMPLE_PNG,
    });
    const media = ((await upload.json()) as { id: string }).id;
    const image = await call("POST", "/posts", { caption: "A picture", platforms: ["reddit"], media });
    expect(image.body.status, JSON.stringify(await targetOf(image.body.id))).toBe("published");
    const imagePost = reddit.posts.at(-1)!;
    expect(imagePost).toMatchObject({ kind: "image", title: "A picture" });
    expect([...reddit.uploads.values()]).toEqual([{ type: "image/png", bytes: SAMPLE_PNG.length }]);
    expect((await targetOf(image.body.id)).permalink).toBe(`https://www.reddit.com${imagePost.permalink}`);
    expect([...reddit.userAgents]).toEqual([USER_AGENT]);
  });

  const cases = grantCases(
    {
      platform: "reddit",
      post: () => ({}),
      expireAccessTokens: () => reddit.expireAccessTokens(),
      tokenRequests: () => reddit.oauth.tokenRequests,
      // Its own test below also covers Reddit's RATELIMIT answer.
      limit: {
        useUp: () => {
          reddit.requestsPerWindow = 0;
        },
        restore: () => {
          reddit.requestsPerWindow = 600;
        },
        error: /Reddit's limit for this app is used up until/,
      },
      revokeAccess: () => reddit.revokeAccess(bea),
      refusedError: /Reddit refused the grant/,
      secrets: () => grantSecrets(reddit.oauth.grants),
    },
    () => live,
  );
  // Reddit keeps the refresh token: the lapse case's second refresh spends the same one.
  it(cases.lapse.name, cases.lapse.run);

  it("Reddit's RATELIMIT answer and a used-up window both wait instead of failing", async () => {
    reddit.submitBreakMinutes = 7;
    const asked = await call("POST", "/posts", { caption: "Too eager", platforms: ["reddit"] });
    const waiting = await targetOf(asked.body.id);
    expect(waiting.status).toBe("pending");
    expect(waiting.error).toMatch(/Reddit asks this account to wait before posting again.*RATELIMIT/);
    reddit.submitBreakMinutes = null;

    reddit.requestsPerWindow = 0;
    const limited = await call("POST", "/posts", { caption: "Over the window", platforms: ["reddit"] });
    const target = await targetOf(limited.body.id);
    expect(target.status).toBe("pending");
    expect(target.error).toMatch(/Reddit's limit for this app is used up until/);
    reddit.requestsPerWindow = 600;
  });

  it(cases.refused.name, cases.refused.run);

  it(cases.secrets.name, cases.secrets.run);
});
