import type { Store } from "@socialpub/core";
import { SAMPLE_MP4, SAMPLE_PNG } from "@socialpub/core/testing";
import { YouTubeFake, type YouTubeFakeUser } from "@socialpub/networks/youtube/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FrontProxy } from "./support/front-proxy.ts";
import { grantCases, grantSecrets } from "./support/grant-cases.ts";
import { appSettings, type LiveOAuthServer, startLiveOAuthServer } from "./support/live-oauth-server.ts";
import { grantInBrowser } from "./support/oauth-browser.ts";

/*
 * Google OAuth connect and video uploads to YouTube end to end: a server behind the address it is told
 * is its public one connects a channel through the YouTube fake's consent page as a person does (PKCE
 * checked, offline access), then uploads videos through resumable sessions. The project is unaudited,
 * as every new Google Cloud project is: videos go up private, and the account's handle says so.
 */

const LIVE_KEY = `sp_live_${"YouTubeOAuthEndToEnd012345678901".repeat(2)}`;

let youtube: YouTubeFake;
let live: LiveOAuthServer;
let front: FrontProxy;
let store: Store;
let userId: string;
let ada: YouTubeFakeUser;
let video: string;

/** An MP4 of about 600 KB: the sample's ftyp box, then filler. */
const LARGE_MP4 = (() => {
  const bytes = new Uint8Array(600 * 1024);
  bytes.set(SAMPLE_MP4, 0);
  for (let i = SAMPLE_MP4.length; i < bytes.length; i++) bytes[i] = i % 251;
  return bytes;
})();

beforeAll(async () => {
  youtube = await YouTubeFake.start();
  const app = youtube.addApp();
  ada = youtube.addUser({ title: "Ada Ships", handle: "@adaships", subscribers: 1234 });
  youtube.signIn(ada);
  live = await startLiveOAuthServer(LIVE_KEY, {
    youtube: { apiUrl: youtube.url, authorizeUrl: `${youtube.url}/o/oauth2/v2/auth`, ...appSettings(app) },
  });
  ({ front, store, userId } = live);
}, 60_000);

afterAll(async () => {
  await live?.close();
  await youtube?.close();
});

const call = (method: string, path: string, body?: unknown) => live.call(method, path, body);

async function connect() {
  const started = await call("POST", "/accounts/connect", { platform: "youtube" });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return started.body as { authorize_url: string; state: string; expires_at: string };
}

const uploadMedia = (bytes: Uint8Array<ArrayBuffer>, type: string) => live.upload(bytes, type);

const targetOf = async (postId: string) => (await call("GET", `/posts/${postId}/targets`)).body.data[0];

describe("YouTube: Google OAuth connect and live video uploads", () => {
  it("a connect answers Google's authorize URL: PKCE S256, offline access, consent, the upload, read and comment scopes", async () => {
    const started = await connect();
    const url = new URL(started.authorize_url);
    expect(url.origin + url.pathname).toBe(`${youtube.url}/o/oauth2/v2/auth`);
    expect(url.searchParams.get("redirect_uri")).toBe(`${front.url}/api/v1/accounts/callback/youtube`);
    expect(url.searchParams.get("scope")).toBe(
      "https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl",
    );
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("access_type")).toBe("offline");
    expect(url.searchParams.get("prompt")).toBe("consent");
    const declined = await grantInBrowser(started.authorize_url, "deny");
    expect(declined.status).toBe(400);
    expect((await call("GET", "/accounts")).body.data).toEqual([]);
  });

  it("granting access connects the channel; its handle says videos upload as private while the app is unaudited", async () => {
    const page = await grantInBrowser((await connect()).authorize_url);
    expect(page.status, page.html).toBe(200);
    expect((await call("GET", "/accounts")).body.data).toEqual([
      {
        platform: "youtube",
        handle: "@adaships (videos upload as private until Google audits the app)",
        followers: 1234,
        health: "healthy",
      },
    ]);
    expect(youtube.oauth.tokenRequests).toEqual([{ grantType: "authorization_code", status: 200 }]);
    const stored = await store.getAccount(userId, "live", "youtube");
    expect(stored!.credentials).toMatch(/^v1\./);
    for (const grant of youtube.oauth.grants) {
      expect(stored!.credentials).not.toContain(grant.accessToken);
      expect(grant.refreshToken).not.toBeNull();
    }
  });

  it("text alone is refused at once, naming YouTube and what to add", async () => {
    const res = await call("POST", "/posts", { caption: "No video here", platforms: ["youtube"] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      "youtube needs media: add media (an image or video URL, or a med_ id), or remove it from platforms.",
    );
    expect((await call("GET", "/posts")).body.data).toEqual([]);
  });

  it("an image is refused when the post is made, as with a test key, saying YouTube needs a video; nothing is uploaded", async () => {
    const image = await uploadMedia(SAMPLE_PNG, "image/png");
    const res = await call("POST", "/posts", { caption: "A picture", platforms: ["youtube"], media: image });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      "youtube needs a video, and the post's media is an image (image/png): give a video (MP4, MOV, WebM, …) as media, or remove it from platforms.",
    );
    expect((await call("GET", "/posts")).body.data).toEqual([]);
    expect(youtube.sessions.size).toBe(0);
  });

  it("uploads a video: first line as title, the rest as description, private while unaudited, and its watch URL", async () => {
    video = await uploadMedia(LARGE_MP4, "video/mp4");
    const caption = "Release 2.0 is out\nWhat changed:\n- faster uploads\n- fewer bugs";
    const res = await call("POST", "/posts", { caption, platforms: ["youtube"], media: video });
    expect(res).toMatchObject({ status: 201, body: { status: "published" } });
    const made = youtube.videosOf(ada);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      title: "Release 2.0 is out",
      description: "What changed:\n- faster uploads\n- fewer bugs",
      requestedPrivacy: "private",
      privacyStatus: "private",
      bytes: LARGE_MP4.length,
    });
    const target = await targetOf(res.body.id);
    expect(target.permalink).toBe(`https://www.youtube.com/watch?v=${made[0]!.id}`);
    // The session is forgotten once the video is made.
    expect((await store.getTargets(res.body.id))[0]!.publish_step).toBeNull();
  });

  it("a long first line is cut to 100 characters on a whole word and kept whole in the description", async () => {
    const line = `${"A very long opening line about the release ".repeat(3)}that goes on`;
    const res = await call("POST", "/posts", {
      caption: `${line}\nMore.`,
      platforms: ["youtube"],
      media: video,
    });
    expect(res.body.status).toBe("published");
    const made = youtube.videos.at(-1)!;
    expect([...made.title].length).toBeLessThanOrEqual(100);
    // Cut where a word ends: what is kept is the line's start, followed there by a space.
    const kept = made.title.slice(0, -1);
    expect(made.title.endsWith("…") && line.startsWith(kept) && line[kept.length] === " ").toBe(true);
    expect(made.description).toBe(`${line}\n\nMore.`);
  });

  it("follows YouTube's 308 Resume Incomplete: sends the rest from the Range it says it holds", async () => {
    youtube.maxBytesPerPut = 200 * 1024;
    const res = await call("POST", "/posts", { caption: "In pieces", platforms: ["youtube"], media: video });
    youtube.maxBytesPerPut = Number.POSITIVE_INFINITY;
    expect(res.body.status).toBe("published");
    const made = youtube.videos.at(-1)!;
    expect(made.bytes).toBe(LARGE_MP4.length);
    const ranges = youtube.puts.filter((p) => p.session === made.sessionId).map((p) => [p.range, p.status]);
    expect(ranges).toEqual([
      [`bytes 0-${LARGE_MP4.length - 1}/${LARGE_MP4.length}`, 308],
      [`bytes ${200 * 1024}-${LARGE_MP4.length - 1}/${LARGE_MP4.length}`, 308],
      [`bytes ${400 * 1024}-${LARGE_MP4.length - 1}/${LARGE_MP4.length}`, 201],
    ]);
  });

  const cases = grantCases(
    {
      platform: "youtube",
      post: () => ({ media: video }),
      expireAccessTokens: () => youtube.expireAccessTokens(),
      tokenRequests: () => youtube.oauth.tokenRequests,
      limit: {
        useUp: () => {
          youtube.quotaPerDay = youtube.quotaUsed;
        },
        restore: () => {
          youtube.quotaPerDay = 10_000_000;
        },
        error:
          /quota of this server's Google Cloud project is used up until .* \(midnight Pacific Time\).*quotaExceeded/,
      },
      revokeAccess: () => youtube.revokeAccess(ada),
      refusedError: /Google refused the grant \(Google said: invalid_grant/,
      secrets: () => grantSecrets(youtube.oauth.grants),
    },
    () => live,
  );
  // Google does not rotate the refresh token: the lapse case's second refresh spends the one kept.
  for (const c of [cases.lapse, cases.limit, cases.refused, cases.secrets]) it(c.name, c.run);
});
