import { createServer, type Server } from "node:http";
import type { AccountSession, MediaFile } from "@socialpub/core";
import { SAMPLE_PNG } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetaFake, MetaFakeUser } from "../../src/common/meta-fake.ts";
import { FacebookFake, type FacebookFakeUser } from "../../src/facebook/fake/server.ts";
import {
  FACEBOOK_DEFAULT_SCOPES,
  facebookAdapter,
  INSTAGRAM_DEFAULT_SCOPES,
  instagramAdapter,
} from "../../src/index.ts";
import { InstagramFake } from "../../src/instagram/fake/server.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { postOf, sessionOf } from "../helpers/session.ts";

/*
 * Instagram and Facebook carry rich posts as their APIs document them, against their fakes: a carousel
 * (Instagram) or a post of several photos (Facebook) of three images, in order, each with its alt text;
 * and the first comment on the published post, which, refused for want of its permission, leaves the
 * post published and says why on the outcome.
 */

const image = (base: string, name: string, alt?: string): MediaFile => ({
  bytes: SAMPLE_PNG,
  contentType: "image/png",
  filename: `${name}.png`,
  url: `${base}/${name}.png`,
  ...(alt !== undefined && { alt }),
});
const ALTS = ["The rocket on the pad", "Lift-off in smoke", "A dot in the sky"];

describe("Instagram: rich posts", () => {
  let fake: MetaFake;
  let media: Server;
  let mediaUrl: string;
  let user: MetaFakeUser;
  let app: { clientId: string; clientSecret: string };

  const adapterWith = (scopes: readonly string[] = INSTAGRAM_DEFAULT_SCOPES) =>
    instagramAdapter({ apiUrl: fake.url, authorizeUrl: `${fake.url}/oauth/authorize`, ...app, scopes });
  const connect = async (scopes: readonly string[] = INSTAGRAM_DEFAULT_SCOPES): Promise<AccountSession> =>
    sessionOf(await connectByConsent(adapterWith(scopes), `${fake.url}/oauth/consent`));

  beforeAll(async () => {
    fake = await InstagramFake.start();
    media = createServer((req, res) => {
      const video = req.url?.endsWith(".mp4");
      res.writeHead(200, { "content-type": video ? "video/mp4" : "image/png" }).end(SAMPLE_PNG);
    });
    await new Promise<void>((resolve) => media.listen(0, "127.0.0.1", resolve));
    mediaUrl = `http://127.0.0.1:${(media.address() as { port: number }).port}`;
    app = fake.addApp();
    user = fake.addUser({ username: "rich_gram" });
    fake.signIn(user);
  });
  afterAll(async () => {
    await fake?.close();
    await new Promise((resolve) => media?.close(resolve));
  });

  it("publishes three images as one carousel, in order, each with its alt text", async () => {
    const account = await connect();
    const files = ALTS.map((alt, i) => image(mediaUrl, `g${i}`, alt));
    const published = await adapterWith().publish(account, postOf("Launch day", files));
    const posts = fake.postsOf(user).filter((p) => p.text === "Launch day");
    expect(posts).toHaveLength(1);
    expect(published).toEqual({ id: posts[0]!.id, permalink: posts[0]!.permalink });
    expect(posts[0]!.mediaType).toBe("CAROUSEL");
    expect(posts[0]!.children).toEqual(
      files.map((f) => ({ mediaType: "IMAGE", mediaUrl: f.url, alt: f.alt })),
    );
  });

  it("puts a video in a carousel as a VIDEO item, without alt text (Instagram takes it on images only)", async () => {
    const account = await connect();
    const clip: MediaFile = {
      ...image(mediaUrl, "clip"),
      contentType: "video/mp4",
      url: `${mediaUrl}/clip.mp4`,
      alt: "A clip",
    };
    await adapterWith().publish(account, postOf("Mixed carousel", [image(mediaUrl, "m0", "Still"), clip]));
    const [post] = fake.postsOf(user).filter((p) => p.text === "Mixed carousel");
    expect(post!.children).toEqual([
      { mediaType: "IMAGE", mediaUrl: `${mediaUrl}/m0.png`, alt: "Still" },
      { mediaType: "VIDEO", mediaUrl: clip.url, alt: null },
    ]);
  });

  it("adds the first comment on the published media", async () => {
    const account = await connect();
    const published = await adapterWith().publish(account, {
      ...postOf("Now shipping", [image(mediaUrl, "s")]),
      firstComment: "Link in bio: https://example.com/shop",
    });
    const comments = fake.comments.filter((c) => c.mediaId === published.id);
    expect(comments.map((c) => c.text)).toEqual(["Link in bio: https://example.com/shop"]);
    expect(published.firstComment).toEqual({
      status: "published",
      permalink: published.permalink,
      error: null,
    });
  });

  it("without instagram_business_manage_comments the post stands and the comment is said to have failed", async () => {
    const scopes = INSTAGRAM_DEFAULT_SCOPES.filter((s) => s !== "instagram_business_manage_comments");
    const account = await connect(scopes);
    const published = await adapterWith(scopes).publish(account, {
      ...postOf("No comments granted", [image(mediaUrl, "n")]),
      firstComment: "Never added",
    });
    expect(fake.postsOf(user).filter((p) => p.text === "No comments granted")).toHaveLength(1);
    expect(fake.comments.filter((c) => c.mediaId === published.id)).toEqual([]);
    expect(published.firstComment).toMatchObject({ status: "failed", permalink: null });
    expect(published.firstComment?.error).toMatch(/permission/);
  });

  it("the fake takes a carousel of 2 to 10 items, with alt text on images only", async () => {
    const token = String((await connect()).credentials.access_token);
    const call = async (params: Record<string, string>) =>
      (
        await fetch(`${fake.url}/v23.0/${user.id}/media`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
          body: new URLSearchParams(params),
        })
      ).json() as Promise<{ id?: string; error?: unknown }>;
    const item = async () => (await call({ image_url: `${mediaUrl}/x.png`, is_carousel_item: "true" })).id!;
    const eleven = await Promise.all(Array.from({ length: 11 }, item));
    expect(await call({ media_type: "CAROUSEL", children: eleven.join(",") })).toHaveProperty("error");
    expect(await call({ media_type: "CAROUSEL", children: eleven.slice(0, 10).join(",") })).toHaveProperty(
      "id",
    );
    expect(
      await call({ media_type: "REELS", video_url: `${mediaUrl}/r.mp4`, alt_text: "A reel" }),
    ).toHaveProperty("error");
  });
});

describe("Facebook: rich posts", () => {
  let fake: FacebookFake;
  let user: FacebookFakeUser;
  let app: { clientId: string; clientSecret: string };

  const adapterWith = (scopes: readonly string[] = FACEBOOK_DEFAULT_SCOPES) =>
    facebookAdapter({ apiUrl: fake.url, authorizeUrl: fake.url, ...app, scopes });
  const connect = async (scopes: readonly string[] = FACEBOOK_DEFAULT_SCOPES): Promise<AccountSession> =>
    sessionOf(await connectByConsent(adapterWith(scopes), `${fake.url}/v23.0/dialog/consent`));

  beforeAll(async () => {
    fake = await FacebookFake.start();
    app = fake.addApp();
    user = fake.addUser({ name: "Dee", pages: [{ name: "Rich Page" }] });
    fake.signIn(user);
  });
  afterAll(async () => {
    await fake?.close();
  });

  it("publishes three photos in one post, in order, each with its alt text", async () => {
    const account = await connect();
    const files = ALTS.map((alt, i) => image("https://media.example.com", `f${i}`, alt));
    const published = await adapterWith().publish(account, postOf("Three photos", files));
    const posts = fake.posts.filter((p) => p.message === "Three photos");
    expect(posts).toHaveLength(1);
    expect(published.id).toBe(posts[0]!.id);
    expect(posts[0]!.photos?.map((p) => p.alt)).toEqual(ALTS);
    // Each photo was uploaded unpublished and attached to that one post.
    expect(fake.unpublishedPhotos.slice(-3).map((p) => p.attachedTo)).toEqual([
      published.id,
      published.id,
      published.id,
    ]);
  });

  it("publishes one photo with its alt text", async () => {
    const account = await connect();
    await adapterWith().publish(
      account,
      postOf("One photo", [image("https://media.example.com", "o", "A lighthouse")]),
    );
    expect(fake.posts.find((p) => p.message === "One photo")?.photo?.alt).toBe("A lighthouse");
  });

  it("adds the Page's first comment on the post", async () => {
    const account = await connect();
    const published = await adapterWith().publish(account, {
      ...postOf("Out now"),
      firstComment: "Release notes: https://example.com/notes",
    });
    const comments = fake.comments.filter((c) => c.postId === published.id);
    expect(comments.map((c) => c.message)).toEqual(["Release notes: https://example.com/notes"]);
    expect(published.firstComment).toEqual({
      status: "published",
      permalink: comments[0]!.permalink,
      error: null,
    });
  });

  it("without pages_manage_engagement the post stands and the comment is said to have failed", async () => {
    const scopes = FACEBOOK_DEFAULT_SCOPES.filter((s) => s !== "pages_manage_engagement");
    const account = await connect(scopes);
    const published = await adapterWith(scopes).publish(account, {
      ...postOf("No engagement"),
      firstComment: "Hi",
    });
    expect(fake.posts.filter((p) => p.message === "No engagement")).toHaveLength(1);
    expect(fake.comments.filter((c) => c.postId === published.id)).toEqual([]);
    expect(published.firstComment).toMatchObject({ status: "failed", permalink: null });
    expect(published.firstComment?.error).toMatch(/pages_manage_engagement/);
  });
});
