import { SAMPLE_JPEG, SAMPLE_MP4, sampleMp4Lasting } from "@socialpub/core/testing";
import { TikTokFake, type TikTokFakeCreator } from "@socialpub/networks/tiktok/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantCases, grantSecrets } from "./support/grant-cases.ts";
import { appSettings, type LiveOAuthServer, startLiveOAuthServer } from "./support/live-oauth-server.ts";
import { grantInBrowser, until } from "./support/oauth-browser.ts";

/*
 * OAuth connect and posting to TikTok end to end: a server behind its public address connects a
 * creator through the TikTok fake's consent page as a person does, then posts videos through the
 * Content Posting API (creator_info, init, chunked upload or pull, status polled until
 * PUBLISH_COMPLETE). One server runs as an unaudited app (private posts only, TikTok's default), another
 * as an audited one that also has a verified domain TikTok pulls media and photos from.
 */

const MB = 1024 * 1024;

/** A video TikTok's upload takes in two chunks (5 MB, then 6 MB): an MP4 header and filler. */
function video(bytes: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(bytes);
  out.set(SAMPLE_MP4);
  return out;
}

interface Running extends LiveOAuthServer {
  fake: TikTokFake;
  alice: TikTokFakeCreator;
  key: string;
}

async function startTikTok(
  key: string,
  posting: { audited: boolean; verifiedDomains: string[] } | undefined,
  scopes?: string[],
) {
  const fake = await TikTokFake.start();
  const alice = fake.addCreator({ username: "alice.tt", nickname: "Alice" });
  fake.signIn(alice);
  const app = { ...appSettings(fake.addApp()), ...(scopes && { scopes }) };
  const live = await startLiveOAuthServer(
    key,
    {
      tiktok: { apiUrl: fake.url, authorizeUrl: `${fake.url}/v2/auth/authorize/`, ...app, ...posting },
    },
    { allowPrivateWebhookUrls: true, bodyLimit: 16 * MB },
  ).catch(async (error) => {
    await fake.close();
    throw error;
  });
  return Object.assign(live, { fake, alice, key }) satisfies Running;
}

async function stopTikTok(r: Running | undefined) {
  await r?.close();
  await r?.fake.close();
}

const call = (r: Running, method: string, path: string, body?: unknown) => r.call(method, path, body);

const targetOf = async (r: Running, postId: string) =>
  (await call(r, "GET", `/posts/${postId}/targets`)).body.data[0];

async function upload(r: Running, bytes: Uint8Array<ArrayBuffer>, type: string): Promise<string> {
  const res = await fetch(`${r.front.url}/api/v1/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${r.key}`, "content-type": type },
    body: bytes,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function connect(r: Running): Promise<string> {
  const started = await call(r, "POST", "/accounts/connect", { platform: "tiktok" });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return started.body.authorize_url;
}

describe("TikTok, unaudited app: OAuth connect and private posts", () => {
  let r: Running;
  let media: string;
  beforeAll(async () => {
    r = await startTikTok(`sp_live_${"TikTokOAuthEndToEndKey0123456789".repeat(2)}`, undefined);
  }, 60_000);
  afterAll(() => stopTikTok(r));

  it("the authorize URL names the client_key, comma-separated scopes and the registered redirect URL (no PKCE); declining connects nothing", async () => {
    const url = new URL(await connect(r));
    expect(url.origin + url.pathname).toBe(`${r.fake.url}/v2/auth/authorize/`);
    expect(url.searchParams.get("client_key")).toBe([...r.fake.oauth.apps.keys()][0]);
    expect(url.searchParams.get("scope")).toBe("user.info.basic,video.publish");
    expect(url.searchParams.get("redirect_uri")).toBe(`${r.front.url}/api/v1/accounts/callback/tiktok`);
    expect(url.searchParams.get("code_challenge")).toBeNull();
    expect((await grantInBrowser(url.href, "deny")).status).toBe(400);
    expect((await call(r, "GET", "/accounts")).body.data).toEqual([]);
  });

  it("granting access connects the creator as @username, the handle saying posts are private; the tokens are sealed", async () => {
    const page = await grantInBrowser(await connect(r));
    expect(page.status, page.html).toBe(200);
    expect(page.html).toMatch(/@alice\.tt \(posts are private until TikTok audits the app\) is connected/);
    expect((await call(r, "GET", "/accounts")).body.data).toEqual([
      {
        platform: "tiktok",
        handle: "@alice.tt (posts are private until TikTok audits the app)",
        followers: 0,
        health: "healthy",
      },
    ]);
    expect(r.fake.oauth.tokenRequests).toEqual([{ grantType: "authorization_code", status: 200 }]);
    const stored = await r.store.getAccount(r.userId, "live", "tiktok");
    expect(stored!.credentials).toMatch(/^v1\./);
    for (const g of r.fake.oauth.grants) expect(stored!.credentials).not.toContain(g.accessToken);
  });

  it("text alone is refused when the post is made, naming what to add", async () => {
    const res = await call(r, "POST", "/posts", { caption: "Just words", platforms: ["tiktok"] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/tiktok needs media: add media \(an image or video URL, or a med_ id\)/);
    expect(r.fake.inits).toEqual([]);
  });

  it("publishes a video uploaded in chunks, private (SELF_ONLY) because the app is unaudited", async () => {
    media = await upload(r, video(11 * MB), "video/mp4");
    const res = await call(r, "POST", "/posts", { caption: "First clip", platforms: ["tiktok"], media });
    expect(res.body.status, JSON.stringify(await targetOf(r, res.body.id))).toBe("published");
    const [made] = r.fake.publishesOf(r.alice);
    expect(made).toMatchObject({
      title: "First clip",
      privacy: "SELF_ONLY",
      source: "FILE_UPLOAD",
      status: "PUBLISH_COMPLETE",
      postId: null,
      ranges: [`0-${5 * MB - 1}/${11 * MB}`, `${5 * MB}-${11 * MB - 1}/${11 * MB}`],
    });
    // A private post has no public id: the link is the creator's profile.
    const target = await targetOf(r, res.body.id);
    expect(target.permalink).toBe("https://www.tiktok.com/@alice.tt");
    expect((await r.store.getTargets(res.body.id))[0]!.publish_step).toBeNull();
  });

  it("a file TikTok's processing refuses fails the target with the fail_reason in words, not retried", async () => {
    r.fake.publishes.failNext = "file_format_check_failed";
    const res = await call(r, "POST", "/posts", { caption: "Broken clip", platforms: ["tiktok"], media });
    const target = await targetOf(r, res.body.id);
    expect(target.status).toBe("failed");
    expect(target.error).toMatch(/not a video TikTok takes.*FAILED file_format_check_failed/);
  });

  it("TikTok's limit of 6 inits a minute (429 rate_limit_exceeded) keeps the post pending with TikTok's wait", async () => {
    r.fake.initsPerMinute = 0;
    const res = await call(r, "POST", "/posts", { caption: "Too fast", platforms: ["tiktok"], media });
    expect(res.body.status).toBe("publishing");
    const target = await targetOf(r, res.body.id);
    expect(target.status).toBe("pending");
    expect(target.error).toMatch(
      /limit of requests a minute .* reached; the post waits 60 s \(TikTok said: 429 rate_limit_exceeded/,
    );
    r.fake.initsPerMinute = 6;
  });

  it("a creator who cannot post more today (spam_risk_too_many_posts) is told before anything is started", async () => {
    const inits = r.fake.inits.length;
    r.fake.postsPerDay = 0;
    const res = await call(r, "POST", "/posts", { caption: "One too many", platforms: ["tiktok"], media });
    const target = await targetOf(r, res.body.id);
    expect(target.status).toBe("pending");
    expect(target.error).toMatch(/limit of posts a day through apps for this creator is reached/);
    expect(r.fake.inits.length).toBe(inits);
    r.fake.postsPerDay = 15;
  });

  it("a token that ended mid-schedule is refreshed, the rotated refresh token kept, and the post goes out", async () => {
    const before = await r.store.getAccount(r.userId, "live", "tiktok");
    const oldRefresh = r.fake.oauth.grants.at(-1)!.refreshToken;
    r.fake.expireAccessTokens();
    const scheduled = await call(r, "POST", "/posts", {
      caption: "Scheduled while the token lapses",
      platforms: ["tiktok"],
      media,
      schedule_at: Date.now() + 1500,
    });
    expect(scheduled).toMatchObject({ status: 201, body: { status: "scheduled" } });
    const done = await until(
      async () => (await call(r, "GET", `/posts/${scheduled.body.id}`)).body,
      (p) => p.status !== "scheduled" && p.status !== "publishing",
    );
    expect(done.status).toBe("published");
    expect(r.fake.oauth.tokenRequests.at(-1)).toEqual({ grantType: "refresh_token", status: 200 });
    // Rotation: TikTok answered a new refresh token and ended the old one.
    const latest = r.fake.oauth.grants.at(-1)!;
    expect(latest.refreshToken).not.toBe(oldRefresh);
    expect(r.fake.oauth.grants.find((g) => g.refreshToken === oldRefresh)!.revoked).toBe(true);
    const after = await r.store.getAccount(r.userId, "live", "tiktok");
    expect(after!.credentials).not.toBe(before!.credentials);
    expect(after!.health).toBe("healthy");
  });

  const cases = grantCases(
    {
      platform: "tiktok",
      post: () => ({ media }),
      expireAccessTokens: () => r.fake.expireAccessTokens(),
      tokenRequests: () => r.fake.oauth.tokenRequests,
      limit: {
        useUp: () => {
          r.fake.postsPerDay = 0;
        },
        restore: () => {
          r.fake.postsPerDay = 15;
        },
        error: /limit of posts a day through apps for this creator is reached/,
      },
      revokeAccess: () => r.fake.revokeAccess(r.alice),
      refusedError: /TikTok/,
      secrets: () => grantSecrets(r.fake.oauth.grants),
    },
    () => r,
  );
  // The lapse and limit tests above check more than the shared cases (TikTok's rotation ending the old
  // refresh token, what TikTok answered): only the refusal and the secrets run from the row.
  for (const c of [cases.refused, cases.secrets]) it(c.name, c.run);
});

describe("TikTok, audited app with a verified domain: public posts, media pulled by TikTok", () => {
  let r: Running;
  beforeAll(async () => {
    r = await startTikTok(
      `sp_live_${"TikTokAuditedPullFromUrlKey01234".repeat(2)}`,
      { audited: true, verifiedDomains: ["127.0.0.1"] },
      ["user.info.basic", "video.publish", "video.list"],
    );
    r.fake.audited = true;
    r.fake.publishes.verifiedUrlPrefixes = [r.front.url];
    expect((await grantInBrowser(await connect(r))).status).toBe(200);
  }, 60_000);
  afterAll(() => stopTikTok(r));

  it("an audited app's account is the creator's @username alone", async () => {
    expect((await call(r, "GET", "/accounts")).body.data).toMatchObject([
      { platform: "tiktok", handle: "@alice.tt", health: "healthy" },
    ]);
  });

  it("posts publicly: TikTok pulls the video from the public media URL, and the permalink names the post", async () => {
    const media = await upload(r, video(64 * 1024), "video/mp4");
    const res = await call(r, "POST", "/posts", { caption: "Public clip", platforms: ["tiktok"], media });
    expect(res.body.status, JSON.stringify(await targetOf(r, res.body.id))).toBe("published");
    const [made] = r.fake.publishesOf(r.alice);
    expect(made).toMatchObject({ privacy: "PUBLIC_TO_EVERYONE", source: "PULL_FROM_URL" });
    expect(made!.urls[0]).toMatch(new RegExp(`^${r.front.url}/api/v1/media/${media}/content/`));
    const target = await targetOf(r, res.body.id);
    expect(target.permalink).toBe(`https://www.tiktok.com/@alice.tt/video/${made!.postId}`);
  });

  it("posts a photo (content/init, pulled from the verified domain)", async () => {
    const media = await upload(r, SAMPLE_JPEG, "image/jpeg");
    const res = await call(r, "POST", "/posts", {
      caption: "A photo\nwith words",
      platforms: ["tiktok"],
      media,
    });
    expect(res.body.status, JSON.stringify(await targetOf(r, res.body.id))).toBe("published");
    const made = r.fake.publishesOf(r.alice).at(-1)!;
    expect(made).toMatchObject({
      mediaType: "PHOTO",
      title: "A photo\nwith words",
      privacy: "PUBLIC_TO_EVERYONE",
    });
    expect(r.fake.inits.at(-1)).toEqual({ path: "/v2/post/publish/content/init/", code: "ok" });
  });

  it("a video longer than the creator's maximum fails the target before TikTok is asked to pull it, saying how to fix it", async () => {
    r.alice.maxDurationSec = 180;
    const inits = r.fake.inits.length;
    const long = await upload(r, sampleMp4Lasting(185, 256 * 1024), "video/mp4");
    const res = await call(r, "POST", "/posts", { caption: "Long clip", platforms: ["tiktok"], media: long });
    const target = await targetOf(r, res.body.id);
    expect(target.status).toBe("failed");
    expect(target.error).toMatch(
      /the video is 3 min 5 s long, and TikTok lets this creator post videos of at most 3 min \(max_video_post_duration_sec 180\)\. Trim the video to 3 min or less/,
    );
    // The server refused it: TikTok saw no init, so its own duration_check_failed never came into it.
    expect(r.fake.inits.length).toBe(inits);
    r.alice.maxDurationSec = 600;
  });
});
