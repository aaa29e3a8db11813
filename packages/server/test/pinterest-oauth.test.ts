import type { Store } from "@socialpub/core";
import { SAMPLE_MP4, SAMPLE_PNG } from "@socialpub/core/testing";
import { PinterestFake, type PinterestFakeUser } from "@socialpub/networks/pinterest/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FrontProxy } from "./support/front-proxy.ts";
import { grantCases, grantSecrets } from "./support/grant-cases.ts";
import { appSettings, type LiveOAuthServer, startLiveOAuthServer } from "./support/live-oauth-server.ts";
import { grantInBrowser } from "./support/oauth-browser.ts";

/*
 * OAuth connect and pinning to Pinterest end to end: a server behind the address it is told is its
 * public one connects a Pinterest account through the Pinterest fake's consent page as a person does,
 * with the board chosen at connect, then pins through it. The fake rotates refresh tokens and checks
 * every request and answer under /v5 (the token endpoint included) against pinterest-openapi.json.
 */

const LIVE_KEY = `sp_live_${"PinterestOAuthEndToEnd0123456789".repeat(2)}`;

let pinterest: PinterestFake;
let live: LiveOAuthServer;
let front: FrontProxy;
let store: Store;
let userId: string;
let ada: PinterestFakeUser;

beforeAll(async () => {
  pinterest = await PinterestFake.start();
  const app = pinterest.addApp();
  ada = pinterest.addUser({ username: "ada_pins", followers: 321, boards: ["Sketches", "Shipping Notes"] });
  pinterest.signIn(ada);
  live = await startLiveOAuthServer(LIVE_KEY, {
    pinterest: { apiUrl: pinterest.url, authorizeUrl: `${pinterest.url}/oauth/`, ...appSettings(app) },
  });
  ({ front, store, userId } = live);
}, 60_000);

afterAll(async () => {
  await live?.close();
  await pinterest?.close();
});

const call = (method: string, path: string, body?: unknown) => live.call(method, path, body);

async function connect(fields: Record<string, unknown> = {}) {
  const started = await call("POST", "/accounts/connect", { platform: "pinterest", ...fields });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return started.body as { authorize_url: string; state: string; expires_at: string };
}

const uploadMedia = (bytes: Uint8Array<ArrayBuffer>, type: string) => live.upload(bytes, type);

async function targetOf(postId: string) {
  return (await call("GET", `/posts/${postId}/targets`)).body.data[0];
}

let image: string;

describe("Pinterest: OAuth connect with a board, and live pins", () => {
  it("a connect answers Pinterest's authorize URL (comma-separated scopes, no PKCE, the registered redirect URL)", async () => {
    const started = await connect();
    const url = new URL(started.authorize_url);
    expect(url.origin + url.pathname).toBe(`${pinterest.url}/oauth/`);
    expect(url.searchParams.get("redirect_uri")).toBe(`${front.url}/api/v1/accounts/callback/pinterest`);
    expect(url.searchParams.get("scope")).toBe(
      "boards:read,boards:write,pins:read,pins:write,user_accounts:read",
    );
    expect(url.searchParams.get("code_challenge")).toBeNull();
    expect(url.searchParams.get("state")).toBe(started.state);
    const declined = await grantInBrowser(started.authorize_url, "deny");
    expect(declined.status).toBe(400);
    expect(declined.html).toMatch(/Access was not granted on Pinterest&#39;s page/);
    expect((await call("GET", "/accounts")).body.data).toEqual([]);
  });

  it("a board the account lacks connects nothing and names the boards it has; a bad board field is a 400", async () => {
    const bad = await call("POST", "/accounts/connect", { platform: "pinterest", board: "" });
    expect(bad.status).toBe(400);
    const page = await grantInBrowser((await connect({ board: "Recipes" })).authorize_url);
    expect(page.status).toBe(400);
    expect(page.html).toMatch(
      /no board &quot;Recipes&quot;; its boards include &quot;Sketches&quot;, &quot;Shipping Notes&quot;/,
    );
    expect((await call("GET", "/accounts")).body.data).toEqual([]);
  });

  it("without a board the first board is chosen; with one, that board (by name, in any case)", async () => {
    const first = await grantInBrowser((await connect()).authorize_url);
    expect(first.status, first.html).toBe(200);
    expect((await call("GET", "/accounts")).body.data).toEqual([
      { platform: "pinterest", handle: "@ada_pins (Sketches)", followers: 321, health: "healthy" },
    ]);
    const chosen = await grantInBrowser((await connect({ board: "shipping notes" })).authorize_url);
    expect(chosen.status, chosen.html).toBe(200);
    expect(chosen.html).toMatch(/@ada_pins \(Shipping Notes\) is connected/);
    expect((await call("GET", "/accounts")).body.data[0].handle).toBe("@ada_pins (Shipping Notes)");
    const stored = await store.getAccount(userId, "live", "pinterest");
    expect(stored!.credentials).toMatch(/^v1\./);
    expect(pinterest.oauth.tokenRequests.map((r) => r.grantType)).toEqual([
      "authorization_code",
      "authorization_code",
      "authorization_code",
    ]);
  });

  it("pins an image on the chosen board: first line as title, text as description, first URL as link", async () => {
    image = await uploadMedia(SAMPLE_PNG, "image/png");
    const caption = "Release 2.0 is out\nNotes at https://example.com/notes and more.";
    const res = await call("POST", "/posts", { caption, platforms: ["pinterest"], media: image });
    expect(res).toMatchObject({ status: 201, body: { status: "published" } });
    const pin = pinterest.pins.at(-1)!;
    const board = ada.boards.find((b) => b.name === "Shipping Notes")!;
    expect(pin).toMatchObject({
      userId: ada.id,
      boardId: board.id,
      title: "Release 2.0 is out",
      description: caption,
      link: "https://example.com/notes",
      image: { contentType: "image/png", bytes: SAMPLE_PNG.length },
    });
    expect((await targetOf(res.body.id)).permalink).toBe(`https://www.pinterest.com/pin/${pin.id}/`);
  });

  it("text alone is refused at once (a pin needs an image); a video is refused by the adapter", async () => {
    const text = await call("POST", "/posts", { caption: "No picture", platforms: ["pinterest"] });
    expect(text.status).toBe(400);
    expect(JSON.stringify(text.body)).toMatch(/pinterest/i);
    const video = await uploadMedia(SAMPLE_MP4, "video/mp4");
    const res = await call("POST", "/posts", { caption: "A clip", platforms: ["pinterest"], media: video });
    const target = await targetOf(res.body.id);
    expect(target.status).toBe("failed");
    expect(target.error).toMatch(/pins JPEG and PNG images; video\/mp4 is not one of them/);
  });

  const cases = grantCases(
    {
      platform: "pinterest",
      post: () => ({ media: image }),
      expireAccessTokens: () => pinterest.expireAccessTokens(),
      tokenRequests: () => pinterest.oauth.tokenRequests,
      limit: {
        useUp: () => {
          pinterest.pinsPerWindow = pinterest.pins.filter((p) => p.userId === ada.id).length;
        },
        restore: () => {
          pinterest.pinsPerWindow = 100;
        },
        error: /Pinterest's limit for this account or app is used up until .*code 8/,
      },
      revokeAccess: () => pinterest.revokeAccess(ada),
      refusedError: /Pinterest refused the grant/,
      secrets: () => grantSecrets(pinterest.oauth.grants),
    },
    () => live,
  );
  // Pinterest rotates the refresh token: the lapse case's second refresh works only if the rotated
  // one was kept.
  for (const c of [cases.lapse, cases.limit, cases.refused, cases.secrets]) it(c.name, c.run);

  it("Pinterest saw nothing that strays from pinterest-openapi.json", () => {
    expect(pinterest.specViolations).toEqual([]);
  });
});
