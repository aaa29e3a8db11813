import type { Credentials, NetworkAdapter } from "@socialpub/core";
import { SAMPLE_JPEG, SAMPLE_PNG } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redditAdapter } from "../../src/index.ts";
import { RedditFake, type RedditFakeUser } from "../../src/reddit/fake/server.ts";
import { type LosingFetch, losingFetch } from "../helpers/losing-fetch.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { caught, postOf, sessionOf } from "../helpers/session.ts";
import { stepped } from "../helpers/stepped.ts";

/*
 * Rich posts on Reddit against its fake: galleries (each image leased and uploaded, then one
 * submit_gallery_post naming their asset ids in order), the options (title, subreddit, flair_id, nsfw,
 * spoiler) and the first comment (/api/comment on the new post), kept in the publish step so a retry
 * never posts or comments twice.
 */

let fake: RedditFake;
let user: RedditFakeUser;
let wire: LosingFetch;
let adapter: NetworkAdapter;
let credentials: Credentials;

const png = () => ({
  bytes: SAMPLE_PNG,
  contentType: "image/png",
  filename: "a.png",
  url: "https://m/a.png",
});
const jpeg = () => ({ ...png(), bytes: SAMPLE_JPEG, contentType: "image/jpeg", filename: "b.jpg" });

beforeAll(async () => {
  fake = await RedditFake.start();
  const app = fake.addApp();
  user = fake.addUser({ name: "rich_poster" });
  fake.addSubreddit({ name: "socialpub", submissionType: "any", subscribers: 10, flairs: ["flair-release"] });
  fake.addSubreddit({ name: "elsewhere", submissionType: "any", subscribers: 3 });
  fake.signIn(user);
  wire = losingFetch();
  adapter = redditAdapter({
    apiUrl: fake.url,
    authorizeUrl: fake.url,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    fetch: wire.fetch,
  });
  credentials = {
    ...(await connectByConsent(adapter, `${fake.url}/api/v1/authorize/consent`)),
    subreddit: "socialpub",
  };
}, 60_000);

afterAll(async () => {
  await fake?.close();
});

const session = () => sessionOf(credentials);

describe("Reddit: galleries", () => {
  it("posts several images as one gallery, in order, titled by the first line", async () => {
    const published = await adapter.publish(
      session(),
      postOf("Launch album\nmore words", [png(), jpeg(), png()]),
    );
    const post = fake.posts.at(-1)!;
    expect(post).toMatchObject({ kind: "gallery", title: "Launch album", subreddit: "socialpub" });
    expect(post.gallery.map((key) => fake.uploads.get(key)?.type)).toEqual([
      "image/png",
      "image/jpeg",
      "image/png",
    ]);
    expect(published).toEqual({ id: post.id, permalink: `https://www.reddit.com${post.permalink}` });
  });

  it("a gallery whose answer was lost is found on the retry, never posted twice", async () => {
    const run = stepped(postOf("Lost gallery", [png(), png()]));
    wire.loseNext(/^POST \/api\/submit_gallery_post\.json$/);
    const lost = await caught(() => adapter.publish(session(), run.post));
    expect(lost).toMatchObject({ kind: "unknown" });
    const again = await adapter.publish(session(), run.again());
    const made = fake.posts.filter((p) => p.title === "Lost gallery");
    expect(made).toHaveLength(1);
    expect(again.id).toBe(made[0]!.id);
  });
});

describe("Reddit: options", () => {
  it("options.reddit.title replaces the first line as the title; the whole text is the body", async () => {
    await adapter.publish(session(), {
      ...postOf("First line stays\nand the rest"),
      options: { title: "A chosen title" },
    });
    expect(fake.posts.at(-1)).toMatchObject({
      kind: "self",
      title: "A chosen title",
      text: "First line stays\nand the rest",
    });
  });

  it("posts to options.reddit.subreddit with flair, nsfw and spoiler", async () => {
    await adapter.publish(session(), {
      ...postOf("Spoilers ahead\nbody"),
      options: { subreddit: "r/elsewhere", nsfw: true, spoiler: true },
    });
    expect(fake.posts.at(-1)).toMatchObject({
      subreddit: "elsewhere",
      title: "Spoilers ahead",
      nsfw: true,
      spoiler: true,
      flairId: null,
    });
    await adapter.publish(session(), { ...postOf("Flaired [x]"), options: { flair_id: "flair-release" } });
    expect(fake.posts.at(-1)).toMatchObject({
      subreddit: "socialpub",
      flairId: "flair-release",
      nsfw: false,
    });
    await adapter.publish(session(), {
      ...postOf("Flaired gallery"),
      media: [png(), jpeg()],
      options: { flair_id: "flair-release", nsfw: true },
    });
    expect(fake.posts.at(-1)).toMatchObject({ kind: "gallery", flairId: "flair-release", nsfw: true });
  });

  it("a flair the subreddit does not have is refused with Reddit's words", async () => {
    const refused = await caught(() =>
      adapter.publish(session(), { ...postOf("Bad flair"), options: { flair_id: "nope" } }),
    );
    expect(refused).toMatchObject({ kind: "refused" });
    expect((refused as Error).message).toMatch(/BAD_FLAIR_TEMPLATE_ID/);
  });
});

describe("Reddit: first comment", () => {
  it("replies to the new post as the account, once, even when the publish runs again", async () => {
    const run = stepped({ ...postOf("With a comment\nbody"), firstComment: "Changelog: https://x.test/c" });
    const published = await adapter.publish(session(), run.post);
    const post = fake.posts.at(-1)!;
    const comment = fake.comments.at(-1)!;
    expect(comment).toMatchObject({
      parent: `t3_${post.id}`,
      userId: user.id,
      text: "Changelog: https://x.test/c",
    });
    expect(published).toEqual({
      id: post.id,
      permalink: `https://www.reddit.com${post.permalink}`,
      firstComment: {
        status: "published",
        permalink: `https://www.reddit.com${comment.permalink}`,
        error: null,
      },
    });
    const again = await adapter.publish(session(), run.again());
    expect(again).toEqual(published);
    expect(fake.comments.filter((c) => c.parent === `t3_${post.id}`)).toHaveLength(1);
    expect(fake.posts.filter((p) => p.title === "With a comment")).toHaveLength(1);
  });

  it("a comment Reddit refuses leaves the post published, the refusal on the comment", async () => {
    const published = await adapter.publish(session(), {
      ...postOf("Post stands"),
      firstComment: "y".repeat(10_001),
    });
    expect(fake.posts.at(-1)!.id).toBe(published.id);
    expect(published.firstComment).toMatchObject({ status: "failed", permalink: null });
    expect(published.firstComment!.error).toMatch(/TOO_LONG/);
  });
});
