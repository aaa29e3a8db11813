import type { Credentials, NetworkAdapter } from "@socialpub/core";
import { SAMPLE_JPEG, SAMPLE_PNG } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINKEDIN_DEFAULT_SCOPES, linkedinAdapter } from "../../src/index.ts";
import { LinkedInFake, type LinkedInFakeMember } from "../../src/linkedin/fake/server.ts";
import { type LosingFetch, losingFetch } from "../helpers/losing-fetch.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { caught, postOf, sessionOf } from "../helpers/session.ts";
import { stepped } from "../helpers/stepped.ts";

/*
 * Rich posts on LinkedIn against its fake: several images (each uploaded through the Images API, then
 * named with its alt text in a multi-image post), the visibility option, and the first comment through
 * the Comments API, kept in the publish step so a retry never comments or posts twice.
 */

let fake: LinkedInFake;
let member: LinkedInFakeMember;
let wire: LosingFetch;
let adapter: NetworkAdapter;
let credentials: Credentials;

const png = (alt?: string) => ({
  bytes: SAMPLE_PNG,
  contentType: "image/png",
  filename: "a.png",
  url: "https://m/a.png",
  ...(alt && { alt }),
});
const jpeg = (alt?: string) => ({ ...png(alt), bytes: SAMPLE_JPEG, contentType: "image/jpeg" });

beforeAll(async () => {
  fake = await LinkedInFake.start();
  const app = fake.addApp();
  member = fake.addMember({ name: "Lin Poster" });
  fake.signIn(member);
  wire = losingFetch();
  adapter = linkedinAdapter({
    apiUrl: fake.url,
    authorizeUrl: fake.url,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    // r_member_social lets a lost answer be read back.
    scopes: [...LINKEDIN_DEFAULT_SCOPES, "r_member_social"],
    fetch: wire.fetch,
  });
  credentials = await connectByConsent(adapter, `${fake.url}/oauth/v2/consent`);
}, 60_000);

afterAll(async () => {
  await fake?.close();
});

describe("LinkedIn: several images with alt text", () => {
  it("posts three images as one multi-image post, in order, each with its alt text", async () => {
    const media = [png("A chart of the launch"), jpeg("The team on stage"), png()];
    const published = await adapter.publish(sessionOf(credentials), postOf("Three pictures", media));
    const post = fake.posts.at(-1)!;
    expect(post.urn).toBe(published.id);
    expect(post.images).toHaveLength(3);
    expect(post.images.map((i) => i.altText)).toEqual(["A chart of the launch", "The team on stage", null]);
    expect(post.images.map((i) => fake.images.get(i.urn)?.type)).toEqual([
      "image/png",
      "image/jpeg",
      "image/png",
    ]);
    expect(new Set(post.images.map((i) => i.urn)).size).toBe(3);
  });

  it("posts one image as a single-image post with its alt text", async () => {
    await adapter.publish(sessionOf(credentials), postOf("One picture", [png("A lighthouse")]));
    expect(fake.posts.at(-1)).toMatchObject({
      commentary: "One picture",
      altText: "A lighthouse",
      images: [{ altText: "A lighthouse" }],
    });
  });

  it("refuses a video among the images before anything is uploaded", async () => {
    const uploads = fake.images.size;
    const video = { ...png(), contentType: "video/mp4", filename: "v.mp4" };
    const refused = await caught(() =>
      adapter.publish(sessionOf(credentials), postOf("Mixed", [png(), video])),
    );
    expect(refused).toMatchObject({ kind: "refused" });
    expect(String((refused as Error).message)).toMatch(/video\/mp4 is not one of them/);
    expect(fake.images.size).toBe(uploads);
  });
});

describe("LinkedIn: visibility", () => {
  it("posts PUBLIC by default and to connections with options.linkedin.visibility CONNECTIONS", async () => {
    await adapter.publish(sessionOf(credentials), postOf("For everyone"));
    expect(fake.posts.at(-1)).toMatchObject({ commentary: "For everyone", visibility: "PUBLIC" });
    await adapter.publish(sessionOf(credentials), {
      ...postOf("For my connections"),
      options: { visibility: "CONNECTIONS" },
    });
    expect(fake.posts.at(-1)).toMatchObject({ commentary: "For my connections", visibility: "CONNECTIONS" });
  });
});

describe("LinkedIn: first comment", () => {
  it("adds the first comment as the member on the new post, and a retry never comments again", async () => {
    const run = stepped({
      ...postOf("Launch day", [png("Box shot")]),
      firstComment: "Notes: https://x.test/n",
    });
    const published = await adapter.publish(sessionOf(credentials), run.post);
    const post = fake.posts.at(-1)!;
    const comment = fake.comments.at(-1)!;
    expect(comment).toMatchObject({
      object: post.urn,
      actor: `urn:li:person:${member.id}`,
      text: "Notes: https://x.test/n",
    });
    expect(published).toEqual({
      id: post.urn,
      permalink: `https://www.linkedin.com/feed/update/${post.urn}/`,
      firstComment: {
        status: "published",
        permalink: `https://www.linkedin.com/feed/update/${post.urn}/?commentUrn=${encodeURIComponent(comment.urn)}`,
        error: null,
      },
    });
    const posts = fake.posts.length;
    const comments = fake.comments.length;
    const again = await adapter.publish(sessionOf(credentials), run.again());
    expect(again).toEqual(published);
    expect([fake.posts.length, fake.comments.length]).toEqual([posts, comments]);
  });

  it("a comment LinkedIn refuses leaves the post published, with the refusal on the comment", async () => {
    const published = await adapter.publish(sessionOf(credentials), {
      ...postOf("Post stands"),
      firstComment: "x".repeat(1251),
    });
    expect(fake.posts.at(-1)!.urn).toBe(published.id);
    expect(published.firstComment).toMatchObject({ status: "failed", permalink: null });
    expect(published.firstComment!.error).toMatch(/LinkedIn said: 422/);
  });

  it("after the post's answer is lost, the retry finds the post by reading back and comments once", async () => {
    const run = stepped({ ...postOf("Lost then found"), firstComment: "The link" });
    wire.loseNext(/^POST \/rest\/posts$/);
    const lost = await caught(() => adapter.publish(sessionOf(credentials), run.post));
    expect(lost).toMatchObject({ kind: "unknown" });
    expect(fake.posts.filter((p) => p.commentary === "Lost then found")).toHaveLength(1);
    const published = await adapter.publish(sessionOf(credentials), run.again());
    const made = fake.posts.filter((p) => p.commentary === "Lost then found");
    expect(made).toHaveLength(1);
    expect(published.id).toBe(made[0]!.urn);
    expect(fake.comments.filter((c) => c.object === made[0]!.urn).map((c) => c.text)).toEqual(["The link"]);
  });

  it("a comment whose answer was lost is not sent again; the post stands", async () => {
    const run = stepped({ ...postOf("Comment lost"), firstComment: "Maybe posted" });
    wire.loseNext(/^POST \/rest\/socialActions\//);
    const first = await adapter.publish(sessionOf(credentials), run.post);
    expect(first.firstComment).toMatchObject({ status: "failed" });
    const again = await adapter.publish(sessionOf(credentials), run.again());
    expect(again.id).toBe(first.id);
    expect(fake.comments.filter((c) => c.object === first.id)).toHaveLength(1);
    expect(fake.posts.filter((p) => p.commentary === "Comment lost")).toHaveLength(1);
  });
});
