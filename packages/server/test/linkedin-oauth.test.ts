import { SAMPLE_PNG } from "@socialpub/core/testing";
import { LinkedInFake, type LinkedInFakeMember } from "@socialpub/networks/linkedin/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FrontProxy } from "./support/front-proxy.ts";
import { grantCases, grantSecrets } from "./support/grant-cases.ts";
import { appSettings, type LiveOAuthServer, startLiveOAuthServer } from "./support/live-oauth-server.ts";
import { grantInBrowser } from "./support/oauth-browser.ts";

/*
 * OAuth connect and posting to LinkedIn end to end: a server behind its public address connects a
 * member through the LinkedIn fake's consent page as a person does, then posts text and an image
 * (initializeUpload → PUT → post) with the versioned LinkedIn-Version header. The fake answers a missing
 * or retired version with 426, a used-up daily limit with 429, and gives refresh tokens only while the
 * app is approved for programmatic refresh.
 */

const LIVE_KEY = `sp_live_${"LinkedInOAuthEndToEndKey01234567".repeat(2)}`;

let linkedin: LinkedInFake;
let live: LiveOAuthServer;
let front: FrontProxy;
let cy: LinkedInFakeMember;
/** Every answer the API gave; checked for tokens at the end. */

beforeAll(async () => {
  linkedin = await LinkedInFake.start();
  const app = linkedin.addApp();
  cy = linkedin.addMember({ name: "Cy Writer" });
  linkedin.signIn(cy);
  live = await startLiveOAuthServer(LIVE_KEY, {
    linkedin: { apiUrl: linkedin.url, authorizeUrl: linkedin.url, ...appSettings(app) },
  });
  ({ front } = live);
}, 60_000);

afterAll(async () => {
  await live?.close();
  await linkedin?.close();
});

const call = (method: string, path: string, body?: unknown) => live.call(method, path, body);

async function connect() {
  const started = await call("POST", "/accounts/connect", { platform: "linkedin" });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return started.body as { authorize_url: string };
}

async function targetOf(postId: string) {
  return (await call("GET", `/posts/${postId}/targets`)).body.data[0];
}

describe("LinkedIn: OAuth connect and live posts", () => {
  it("connects through LinkedIn's page (no PKCE, the registered redirect URL) as the member's name", async () => {
    const url = new URL((await connect()).authorize_url);
    expect(url.origin + url.pathname).toBe(`${linkedin.url}/oauth/v2/authorization`);
    expect(url.searchParams.get("scope")).toBe("openid profile w_member_social");
    expect(url.searchParams.get("redirect_uri")).toBe(`${front.url}/api/v1/accounts/callback/linkedin`);
    expect(url.searchParams.get("code_challenge")).toBeNull();
    const page = await grantInBrowser(url.href);
    expect(page.status, page.html).toBe(200);
    expect((await call("GET", "/accounts")).body.data).toEqual([
      { platform: "linkedin", handle: "Cy Writer", followers: 0, health: "healthy" },
    ]);
  });

  it("posts text with LinkedIn's reserved characters escaped, under the versioned header", async () => {
    const caption = "Shipped (finally) #release @team — see <notes>";
    const res = await call("POST", "/posts", { caption, platforms: ["linkedin"] });
    expect(res).toMatchObject({ status: 201, body: { status: "published" } });
    const post = linkedin.posts.at(-1)!;
    expect(post).toMatchObject({
      author: `urn:li:person:${cy.id}`,
      commentary: "Shipped \\(finally\\) \\#release \\@team — see \\<notes\\>",
      imageUrn: null,
      version: "202511",
    });
    expect((await targetOf(res.body.id)).permalink).toBe(`https://www.linkedin.com/feed/update/${post.urn}/`);
  });

  it("posts an image: initializeUpload, PUT of the bytes, then the post naming the image", async () => {
    const upload = await fetch(`${front.url}/api/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${LIVE_KEY}`, "content-type": "image/png" },
      body: SAMPLE_PNG,
    });
    const media = ((await upload.json()) as { id: string }).id;
    const res = await call("POST", "/posts", { caption: "With a picture", platforms: ["linkedin"], media });
    expect(res.body.status, JSON.stringify(await targetOf(res.body.id))).toBe("published");
    const post = linkedin.posts.at(-1)!;
    expect(linkedin.images.get(post.imageUrn!)).toMatchObject({
      bytes: SAMPLE_PNG.length,
      type: "image/png",
    });
  });

  const cases = grantCases(
    {
      platform: "linkedin",
      post: () => ({}),
      expireAccessTokens: () => linkedin.expireAccessTokens(),
      tokenRequests: () => linkedin.oauth.tokenRequests,
      // Its own test below also says when LinkedIn's day ends.
      limit: {
        useUp: () => {
          linkedin.postsPerDay = linkedin.posts.length;
        },
        restore: () => {
          linkedin.postsPerDay = 150;
        },
        error: /used up until/,
      },
      revokeAccess: () => linkedin.revokeAccess(cy),
      refusedError: /LinkedIn refused the grant/,
      secrets: () => grantSecrets(linkedin.oauth.grants),
    },
    () => live,
  );
  // With programmatic refresh LinkedIn keeps the refresh token: the lapse case's second refresh spends it again.
  it(cases.lapse.name, cases.lapse.run);

  it("the daily limit waits until LinkedIn's day ends (midnight UTC)", async () => {
    linkedin.postsPerDay = linkedin.posts.length;
    const limited = await call("POST", "/posts", { caption: "One too many", platforms: ["linkedin"] });
    const target = await targetOf(limited.body.id);
    expect(target.status).toBe("pending");
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(target.error).toContain(`used up until ${midnight.toISOString().slice(0, 13)}`);
    linkedin.postsPerDay = 150;
  });

  it(cases.refused.name, cases.refused.run);

  it("without programmatic refresh, a grant ending within 7 days connects as expiring", async () => {
    linkedin.programmaticRefresh = false;
    linkedin.oauth.accessTokenSeconds = 3 * 24 * 60 * 60;
    const page = await grantInBrowser((await connect()).authorize_url);
    expect(page.status, page.html).toBe(200);
    expect((await call("GET", "/accounts")).body.data[0]).toMatchObject({ health: "expiring" });
    // It still publishes until it ends.
    expect(
      (await call("POST", "/posts", { caption: "Still good", platforms: ["linkedin"] })).body.status,
    ).toBe("published");
  });

  it(cases.secrets.name, cases.secrets.run);
});
