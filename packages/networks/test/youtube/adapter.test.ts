import type { Credentials, MediaFile, PublishStep } from "@socialpub/core";
import { SAMPLE_MP4 } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { youtubeAdapter } from "../../src/index.ts";
import { YouTubeFake, type YouTubeFakeUser } from "../../src/youtube/fake/server.ts";
import { pkcePair, pressAllow } from "../helpers/oauth-consent.ts";
import { postOf, sessionOf } from "../helpers/session.ts";

/*
 * The YouTube adapter against the YouTube fake, without a server: the connect's token exchange with
 * PKCE, chunked uploads with Content-Range, a saved session resumed rather than opened again, and
 * Google's refusals classified.
 */

let fake: YouTubeFake;
let ada: YouTubeFakeUser;
let app: { clientId: string; clientSecret: string };
const REDIRECT = "http://127.0.0.1:1/api/v1/accounts/callback/youtube";

const video = (size: number): MediaFile => {
  const bytes = new Uint8Array(size);
  bytes.set(SAMPLE_MP4, 0);
  return { bytes, contentType: "video/mp4", filename: "clip.mp4", url: "http://127.0.0.1:1/clip.mp4" };
};

beforeAll(async () => {
  fake = await YouTubeFake.start();
  app = fake.addApp();
  ada = fake.addUser({ title: "Ada Ships", subscribers: 7 });
  fake.signIn(ada);
});

afterAll(() => fake?.close());

const adapter = (options: Parameters<typeof youtubeAdapter>[0] = {}) =>
  youtubeAdapter({
    apiUrl: fake.url,
    authorizeUrl: `${fake.url}/o/oauth2/v2/auth`,
    ...app,
    ...options,
  });

const consent = (authorizeUrl: string) => pressAllow(authorizeUrl, `${fake.url}/o/oauth2/consent`);
const pkce = pkcePair;

let credentials: Credentials;

describe("youtube adapter", () => {
  it("trades the code with its PKCE verifier, and refuses a wrong verifier as a grant to make again", async () => {
    const a = adapter({ audited: true });
    const { verifier, challenge } = await pkce();
    const bad = await consent(
      a.oauth!.authorizeUrl({ state: "s", redirectUri: REDIRECT, codeChallenge: challenge }),
    );
    await expect(
      a.oauth!.exchange({
        code: bad,
        redirectUri: REDIRECT,
        codeVerifier: "w".repeat(50),
        fields: {},
        signal: AbortSignal.timeout(10_000),
      }),
    ).rejects.toMatchObject({ kind: "reauth", message: expect.stringMatching(/verifier does not match/) });
    const code = await consent(
      a.oauth!.authorizeUrl({ state: "s", redirectUri: REDIRECT, codeChallenge: challenge }),
    );
    const connected = await a.oauth!.exchange({
      code,
      redirectUri: REDIRECT,
      codeVerifier: verifier,
      fields: {},
      signal: AbortSignal.timeout(10_000),
    });
    // Audited: the handle has nothing to warn about.
    expect(connected).toMatchObject({ handle: "Ada Ships", followers: 7, health: "healthy" });
    credentials = connected.credentials;
    expect(credentials.refresh_token).toEqual(expect.any(String));
  });

  it("sends a large video in 256 KiB chunks with Content-Range, public once the project is audited", async () => {
    fake.audited = true;
    const file = video(600 * 1024);
    const published = await adapter({ audited: true, chunkBytes: 256 * 1024 }).publish(
      sessionOf(credentials),
      postOf("Chunked\nIn three parts", [file]),
    );
    const made = fake.videos.at(-1)!;
    expect(published).toEqual({ id: made.id, permalink: `https://www.youtube.com/watch?v=${made.id}` });
    expect(made).toMatchObject({ privacyStatus: "public", bytes: file.bytes.length, title: "Chunked" });
    expect(fake.puts.filter((p) => p.session === made.sessionId).map((p) => [p.range, p.status])).toEqual([
      ["bytes 0-262143/614400", 308],
      ["bytes 262144-524287/614400", 308],
      ["bytes 524288-614399/614400", 201],
    ]);
    fake.audited = false;
  });

  it("resumes a saved session: a finished one is answered as the post, nothing uploaded again", async () => {
    const file = video(64 * 1024);
    let saved: PublishStep | null = null;
    const first = postOf("Once", [file]);
    first.saveStep = async (step) => {
      saved = step;
    };
    const published = await adapter().publish(sessionOf(credentials), first);
    expect(saved).toMatchObject({
      upload_session: expect.stringContaining(fake.url),
      size: file.bytes.length,
    });
    const sessions = fake.sessions.size;
    const again = postOf("Once", [file]);
    again.step = saved;
    expect(await adapter().publish(sessionOf(credentials), again)).toEqual(published);
    expect(fake.sessions.size).toBe(sessions);
    expect(fake.puts.at(-1)).toMatchObject({ range: `bytes */${file.bytes.length}`, status: 200 });
  });

  it("a file YouTube cannot use as a video is refused with YouTube's reason", async () => {
    const notVideo: MediaFile = { ...video(1024), bytes: new Uint8Array(1024).fill(7) };
    await expect(
      adapter().publish(sessionOf(credentials), postOf("Broken", [notVideo])),
    ).rejects.toMatchObject({
      kind: "refused",
      message: expect.stringMatching(/could not use the uploaded file as a video .*failed: invalidFile/),
    });
  });

  it("an image that reached the publish (a URL whose kind its path did not tell) is refused before any upload", async () => {
    const sessions = fake.sessions.size;
    const image: MediaFile = { ...video(1024), contentType: "image/png", filename: "picture" };
    await expect(adapter().publish(sessionOf(credentials), postOf("Picture", [image]))).rejects.toMatchObject(
      {
        kind: "refused",
        message:
          "YouTube: videos only; the post's media is image/png. Give a video (MP4, MOV, WebM, …) as the media.",
      },
    );
    expect(fake.sessions.size).toBe(sessions);
  });

  it("the channel's upload limit waits a day; an expired token asks for a refresh", async () => {
    fake.uploadsPerChannel = fake.sessions.size;
    await expect(
      adapter().publish(sessionOf(credentials), postOf("Limit", [video(1024)])),
    ).rejects.toMatchObject({
      kind: "retry",
      retryAfterMs: 24 * 60 * 60_000,
      message: expect.stringMatching(/uploadLimitExceeded/),
    });
    fake.uploadsPerChannel = Number.POSITIVE_INFINITY;
    fake.expireAccessTokens();
    await expect(
      adapter().publish(sessionOf(credentials), postOf("Expired", [video(1024)])),
    ).rejects.toMatchObject({
      kind: "reauth",
      status: 401,
    });
  });

  it("reads a video's statistics as reach, likes and comments", async () => {
    const made = fake.videos[0]!;
    made.statistics = { viewCount: 5, likeCount: 2, commentCount: 1 };
    const refreshed = await adapter().oauth!.refresh(credentials, AbortSignal.timeout(10_000));
    const figures = await adapter().readMetrics!(
      sessionOf(refreshed),
      { id: made.id, permalink: "" },
      AbortSignal.timeout(10_000),
    );
    expect(figures).toEqual({ reach: 5, likes: 2, comments: 1 });
  });

  it("a followers read refreshes an ending token itself, keeping the refresh token Google did not rotate", async () => {
    let stored: Credentials | null = null;
    const session = {
      handle: "Ada Ships",
      credentials: { ...credentials, expires_at: Date.now() + 1000 },
      saveCredentials: async (next: Credentials) => {
        stored = next;
      },
    };
    fake.expireAccessTokens();
    expect(await adapter().readFollowers!(session, AbortSignal.timeout(10_000))).toBe(7);
    expect(stored).toMatchObject({ refresh_token: credentials.refresh_token });
    expect(stored!.access_token).not.toBe(credentials.access_token);
  });
});
