import { createServer, type Server } from "node:http";
import type { AccountSession, MediaFile, PublishInput } from "@socialpub/core";
import { SAMPLE_JPEG, SAMPLE_MP4 } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tiktokAdapter } from "../../src/index.ts";
import { TikTokFake, type TikTokFakeCreator } from "../../src/tiktok/fake/server.ts";
import { caught } from "../helpers/session.ts";

/*
 * Rich posts on TikTok against its fake: photo posts of several images (content/init, media_type
 * PHOTO, photo_images pulled by TikTok from a verified domain, in order), and the options
 * privacy_level, disable_comment, disable_duet and disable_stitch, each checked against what
 * creator_info says of the creator before anything is started.
 */

let fake: TikTokFake;
let media: Server;
let mediaUrl: string;
let creator: TikTokFakeCreator;
let token: string;

beforeAll(async () => {
  fake = await TikTokFake.start();
  fake.audited = true;
  media = createServer((request, response) => {
    response.writeHead(200, { "content-type": "image/jpeg" }).end(Buffer.from(SAMPLE_JPEG));
    void request;
  });
  await new Promise<void>((resolve) => media.listen(0, "127.0.0.1", resolve));
  const address = media.address();
  mediaUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  fake.publishes.verifiedUrlPrefixes = [mediaUrl];
  const app = fake.addApp();
  creator = fake.addCreator({ username: "rich.tt" });
  fake.signIn(creator);
  const redirect = "https://social.example.com/api/v1/accounts/callback/tiktok";
  const authorize = new URL(`${fake.url}/v2/auth/authorize/`);
  authorize.search = new URLSearchParams({
    client_key: app.clientId,
    response_type: "code",
    scope: "user.info.basic,video.publish",
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
  const answer = await fetch(`${fake.url}/v2/oauth/token/`, {
    method: "POST",
    body: new URLSearchParams({
      client_key: app.clientId,
      client_secret: app.clientSecret,
      code,
      grant_type: "authorization_code",
      redirect_uri: redirect,
    }),
  });
  token = ((await answer.json()) as { access_token: string }).access_token;
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await new Promise((resolve) => media?.close(resolve));
});

const adapterWith = (audited: boolean) =>
  tiktokAdapter({ apiUrl: fake.url, audited, verifiedDomains: ["127.0.0.1"], processingWaitMs: 20_000 });
const session = (): AccountSession => ({
  handle: "@rich.tt",
  credentials: { access_token: token, username: "rich.tt" },
  saveCredentials: async () => {},
});
const photo = (name: string): MediaFile => ({
  bytes: SAMPLE_JPEG,
  contentType: "image/jpeg",
  filename: name,
  url: `${mediaUrl}/${name}`,
});
const clip = (): MediaFile => ({
  bytes: SAMPLE_MP4,
  contentType: "video/mp4",
  filename: "a.mp4",
  url: "https://x.invalid/a.mp4",
});
let keys = 0;
const input = (text: string, files: MediaFile[], options?: Record<string, unknown>): PublishInput => ({
  postId: `post_${++keys}`,
  text,
  key: `3kricht${String(keys).padStart(6, "2")}`,
  media: files,
  signal: AbortSignal.timeout(30_000),
  step: null,
  saveStep: async () => {},
  ...(options && { options }),
});
const lastPublish = () => [...fake.publishes.all.values()].at(-1)!;

describe("TikTok: photo posts", () => {
  it("posts three photos as one photo post, pulled from the verified domain in order", async () => {
    const published = await adapterWith(true).publish(
      session(),
      input("Three photos\nfrom the launch", [photo("1.jpg"), photo("2.jpg"), photo("3.jpg")]),
    );
    const made = lastPublish();
    expect(made).toMatchObject({
      mediaType: "PHOTO",
      source: "PULL_FROM_URL",
      urls: [`${mediaUrl}/1.jpg`, `${mediaUrl}/2.jpg`, `${mediaUrl}/3.jpg`],
      privacy: "PUBLIC_TO_EVERYONE",
      disableComment: false,
      disableDuet: null,
      status: "PUBLISH_COMPLETE",
    });
    expect(published.permalink).toMatch(/^https:\/\/www\.tiktok\.com\/@rich\.tt/);
  });

  it("a photo post takes disable_comment and privacy_level from the options", async () => {
    await adapterWith(true).publish(
      session(),
      input("Quiet photos", [photo("4.jpg"), photo("5.jpg")], {
        privacy_level: "MUTUAL_FOLLOW_FRIENDS",
        disable_comment: true,
      }),
    );
    expect(lastPublish()).toMatchObject({
      mediaType: "PHOTO",
      privacy: "MUTUAL_FOLLOW_FRIENDS",
      disableComment: true,
    });
  });
});

describe("TikTok: privacy and interaction options, read against creator_info", () => {
  it("a video takes privacy_level and disable_comment/duet/stitch from the options", async () => {
    await adapterWith(true).publish(
      session(),
      input("Video, friends only", [clip()], {
        privacy_level: "MUTUAL_FOLLOW_FRIENDS",
        disable_comment: true,
        disable_duet: true,
      }),
    );
    expect(lastPublish()).toMatchObject({
      mediaType: "VIDEO",
      privacy: "MUTUAL_FOLLOW_FRIENDS",
      disableComment: true,
      disableDuet: true,
      // The creator turned stitches off in TikTok: it stays off whatever the options say.
      disableStitch: true,
    });
  });

  it("what the creator turned off stays off although the options ask for it on", async () => {
    creator.commentDisabled = true;
    try {
      await adapterWith(true).publish(
        session(),
        input("Comments asked on", [clip()], { disable_comment: false, disable_stitch: false }),
      );
      expect(lastPublish()).toMatchObject({ disableComment: true, disableStitch: true, disableDuet: false });
    } finally {
      creator.commentDisabled = false;
    }
  });

  it("a privacy level creator_info does not offer is refused before anything is started, naming those offered", async () => {
    const before = fake.publishes.all.size;
    const refused = await caught(() =>
      adapterWith(true).publish(
        session(),
        input("Followers", [clip()], { privacy_level: "FOLLOWER_OF_CREATOR" }),
      ),
    );
    expect(refused).toMatchObject({ kind: "refused" });
    expect((refused as Error).message).toMatch(
      /privacy level FOLLOWER_OF_CREATOR.*offered: PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY.*options\.tiktok\.privacy_level/,
    );
    expect(fake.publishes.all.size).toBe(before);
  });

  it("an unaudited app asked for a public post is refused with what to do; SELF_ONLY goes out", async () => {
    const before = fake.publishes.all.size;
    fake.audited = false;
    try {
      const refused = await caught(() =>
        adapterWith(false).publish(
          session(),
          input("Public?", [clip()], { privacy_level: "PUBLIC_TO_EVERYONE" }),
        ),
      );
      expect(refused).toMatchObject({ kind: "refused" });
      expect((refused as Error).message).toMatch(/privately only \(SELF_ONLY\)/);
      expect(fake.publishes.all.size).toBe(before);
      await adapterWith(false).publish(session(), input("Private", [clip()], { privacy_level: "SELF_ONLY" }));
      expect(lastPublish()).toMatchObject({ privacy: "SELF_ONLY", title: "Private" });
    } finally {
      fake.audited = true;
    }
  });
});
