import type { AccountSession, PublishInput } from "@socialpub/core";
import { SAMPLE_MP4, sampleMp4Lasting } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tiktokAdapter } from "../../src/index.ts";
import { TikTokFake } from "../../src/tiktok/fake/server.ts";
import { chunkRanges, planChunks } from "../../src/tiktok/upload.ts";

/* TikTok's chunk rules, and the adapter's answers to the fake's errors, without a server. */

const MB = 1024 * 1024;

describe("TikTok chunk plan (Media Transfer Guide)", () => {
  it("a video under 5 MB goes whole; larger ones in chunks rounded down, the last carrying the rest", () => {
    expect(planChunks(3 * MB, 5 * MB)).toEqual({
      video_size: 3 * MB,
      chunk_size: 3 * MB,
      total_chunk_count: 1,
    });
    const plan = planChunks(23 * MB + 7, 10 * MB);
    expect(plan).toEqual({ video_size: 23 * MB + 7, chunk_size: 10 * MB, total_chunk_count: 2 });
    expect(chunkRanges(plan)).toEqual([
      { first: 0, last: 10 * MB - 1 },
      { first: 10 * MB, last: 23 * MB + 6 },
    ]);
    // Below TikTok's 5 MB or above its 64 MB, the preferred size is brought within them.
    expect(planChunks(12 * MB, MB).chunk_size).toBe(5 * MB);
    expect(planChunks(300 * MB, 100 * MB).chunk_size).toBe(64 * MB);
  });
});

describe("TikTok adapter against the fake", () => {
  let fake: TikTokFake;
  beforeAll(async () => {
    fake = await TikTokFake.start();
  });
  afterAll(() => fake.close());

  const session = (accessToken: string): AccountSession => ({
    handle: "@cy.tt",
    credentials: { access_token: accessToken, username: "cy.tt" },
    saveCredentials: async () => {},
  });
  const input = (): PublishInput => ({
    postId: "post_1",
    text: "Clip",
    key: "3kabcdefghijk",
    media: [
      { bytes: SAMPLE_MP4, contentType: "video/mp4", filename: "a.mp4", url: "https://x.invalid/a.mp4" },
    ],
    signal: AbortSignal.timeout(30_000),
    step: null,
    saveStep: async () => {},
  });

  /** A grant as the fake's consent page and token endpoint give it, for `scope`. */
  async function grant(scope: string): Promise<{ access_token: string; scope: string }> {
    const app = fake.addApp();
    fake.signIn(fake.addCreator({ username: "cy.tt" }));
    const redirect = "https://social.example.com/api/v1/accounts/callback/tiktok";
    const authorize = new URL(`${fake.url}/v2/auth/authorize/`);
    authorize.search = new URLSearchParams({
      client_key: app.clientId,
      response_type: "code",
      scope,
      redirect_uri: redirect,
      state: "s1",
    }).toString();
    const html = await (await fetch(authorize)).text();
    const request = /name="request" value="([^"]+)"/.exec(html)![1]!;
    const back = await fetch(`${fake.url}/v2/auth/consent`, {
      method: "POST",
      body: new URLSearchParams({ request, decision: "allow" }),
      redirect: "manual",
    });
    const code = new URL(back.headers.get("location")!).searchParams.get("code")!;
    const token = await fetch(`${fake.url}/v2/oauth/token/`, {
      method: "POST",
      body: new URLSearchParams({
        client_key: app.clientId,
        client_secret: app.clientSecret,
        code,
        grant_type: "authorization_code",
        redirect_uri: redirect,
      }),
    });
    return (await token.json()) as { access_token: string; scope: string };
  }

  it("reads a public video's counts through video/query with video.list; without it, nothing", async () => {
    fake.audited = true;
    const adapter = tiktokAdapter({ apiUrl: fake.url, audited: true });
    const granted = await grant("user.info.basic,video.publish,video.list");
    const account = { ...session(granted.access_token), credentials: { ...granted, username: "cy.tt" } };
    const post = await adapter.publish(account, input());
    expect(post.permalink).toBe(`https://www.tiktok.com/@cy.tt/video/${post.id}`);
    expect(await adapter.readMetrics!(account, post, AbortSignal.timeout(10_000))).toEqual({
      reach: 120,
      likes: 12,
      comments: 3,
      shares: 1,
    });
    const without = {
      ...account,
      credentials: { ...account.credentials, scope: "user.info.basic,video.publish" },
    };
    expect(await adapter.readMetrics!(without, post, AbortSignal.timeout(10_000))).toEqual({});
  });

  it("a creator TikTok bans from posting is refused before anything is started", async () => {
    const adapter = tiktokAdapter({ apiUrl: fake.url });
    const granted = await grant("user.info.basic,video.publish");
    const creator = [...fake.creators.values()].at(-1)!;
    creator.banned = true;
    const inits = fake.inits.length;
    const account = { ...session(granted.access_token), credentials: { ...granted, username: "cy.tt" } };
    const error = await adapter.publish(account, input()).catch((e) => e);
    expect(error).toMatchObject({ kind: "refused", status: 403 });
    expect(error.message).toMatch(/does not let this creator post at the moment \(banned from posting\)/);
    expect(fake.inits.length).toBe(inits);
  });

  const withVideo = (bytes: Uint8Array<ArrayBuffer>): PublishInput => ({
    ...input(),
    media: [{ bytes, contentType: "video/mp4", filename: "long.mp4", url: "https://x.invalid/long.mp4" }],
  });

  it("a video longer than the creator's maximum is refused before anything is started: its length, the maximum, the fix", async () => {
    const adapter = tiktokAdapter({ apiUrl: fake.url });
    const granted = await grant("user.info.basic,video.publish");
    const creator = [...fake.creators.values()].at(-1)!;
    expect(creator.maxDurationSec).toBe(600);
    const account = { ...session(granted.access_token), credentials: { ...granted, username: "cy.tt" } };
    const inits = fake.inits.length;
    const error = await adapter.publish(account, withVideo(sampleMp4Lasting(605.2))).catch((e) => e);
    expect(error).toMatchObject({ network: "tiktok", kind: "refused" });
    expect(error.message).toBe(
      "TikTok: the video is 10 min 5.2 s long, and TikTok lets this creator post videos of at most 10 min (max_video_post_duration_sec 600). Trim the video to 10 min or less and post it again.",
    );
    // Refused here, not by TikTok: no post was started.
    expect(fake.inits.length).toBe(inits);
    expect(fake.publishesOf(creator)).toEqual([]);

    // Exactly the maximum goes out, as does a video whose length the file does not say.
    await adapter.publish(account, withVideo(sampleMp4Lasting(600)));
    await adapter.publish(account, input());
    expect(fake.publishesOf(creator).map((p) => p.status)).toEqual(["PUBLISH_COMPLETE", "PUBLISH_COMPLETE"]);
  });

  it("the fake, as TikTok, fails a video longer than the creator's maximum once received: duration_check_failed", async () => {
    const granted = await grant("user.info.basic,video.publish");
    const call = async (path: string, body: unknown) =>
      (await (
        await fetch(`${fake.url}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${granted.access_token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json()) as { data: Record<string, unknown> };
    const bytes = sampleMp4Lasting(601);
    const started = await call("/v2/post/publish/video/init/", {
      post_info: { title: "Too long", privacy_level: "SELF_ONLY" },
      source_info: {
        source: "FILE_UPLOAD",
        video_size: bytes.length,
        chunk_size: bytes.length,
        total_chunk_count: 1,
      },
    });
    const put = await fetch(String(started.data.upload_url), {
      method: "PUT",
      headers: {
        "content-type": "video/mp4",
        "content-range": `bytes 0-${bytes.length - 1}/${bytes.length}`,
      },
      body: bytes,
    });
    expect(put.status).toBe(201);
    const status = await call("/v2/post/publish/status/fetch/", { publish_id: started.data.publish_id });
    expect(status.data).toMatchObject({ status: "FAILED", fail_reason: "duration_check_failed" });
  });

  it("an unknown token is access_token_invalid: reconnect, with TikTok's log id", async () => {
    const adapter = tiktokAdapter({ apiUrl: fake.url });
    const error = await adapter.publish(session("not-a-token"), input()).catch((e) => e);
    expect(error).toMatchObject({ kind: "reauth", status: 401 });
    expect(error.message).toMatch(/access_token_invalid: .*log id 20261124/);
  });
});
