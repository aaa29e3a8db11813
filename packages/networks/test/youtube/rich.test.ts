import type { Credentials, MediaFile, NetworkAdapter } from "@socialpub/core";
import { SAMPLE_MP4 } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { YOUTUBE_DEFAULT_SCOPES, youtubeAdapter } from "../../src/index.ts";
import { YouTubeFake, type YouTubeFakeUser } from "../../src/youtube/fake/server.ts";
import { type LosingFetch, losingFetch } from "../helpers/losing-fetch.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { caught, postOf, sessionOf } from "../helpers/session.ts";
import { stepped } from "../helpers/stepped.ts";

/*
 * Rich posts on YouTube against its fake: the options (title, privacy, tags, category_id,
 * made_for_kids) in the upload's metadata, and the first comment through commentThreads.insert (the
 * youtube.force-ssl scope), kept in the step so a retry never uploads or comments twice.
 */

let fake: YouTubeFake;
let ada: YouTubeFakeUser;
let app: { clientId: string; clientSecret: string };
let wire: LosingFetch;
let adapter: NetworkAdapter;
let credentials: Credentials;

const video = (): MediaFile => ({
  bytes: SAMPLE_MP4,
  contentType: "video/mp4",
  filename: "clip.mp4",
  url: "http://127.0.0.1:1/clip.mp4",
});

const adapterWith = (options: Parameters<typeof youtubeAdapter>[0] = {}) =>
  youtubeAdapter({
    apiUrl: fake.url,
    authorizeUrl: `${fake.url}/o/oauth2/v2/auth`,
    ...app,
    audited: true,
    fetch: wire.fetch,
    ...options,
  });

beforeAll(async () => {
  fake = await YouTubeFake.start();
  fake.audited = true;
  app = fake.addApp();
  ada = fake.addUser({ title: "Ada Ships", subscribers: 7 });
  fake.signIn(ada);
  wire = losingFetch();
  adapter = adapterWith();
  credentials = await connectByConsent(adapter, `${fake.url}/o/oauth2/consent`);
}, 60_000);

afterAll(() => fake?.close());

const session = () => sessionOf(credentials);

describe("YouTube: options", () => {
  it("title, privacy, tags, category and made-for-kids go in the upload's metadata", async () => {
    const published = await adapter.publish(session(), {
      ...postOf("First line of the text\nand more", [video()]),
      options: {
        title: "Release 2.0 <walkthrough>",
        privacy: "unlisted",
        tags: ["release notes", "socialpub"],
        category_id: "28",
        made_for_kids: true,
      },
    });
    const made = fake.videos.at(-1)!;
    expect(made).toMatchObject({
      id: published.id,
      title: "Release 2.0 ‹walkthrough›",
      description: "First line of the text\nand more",
      requestedPrivacy: "unlisted",
      privacyStatus: "unlisted",
      tags: ["release notes", "socialpub"],
      categoryId: "28",
      madeForKids: true,
    });
  });

  it("without options: public once audited, the first line as the title, not made for kids", async () => {
    await adapter.publish(session(), postOf("Plain upload\nbody", [video()]));
    expect(fake.videos.at(-1)).toMatchObject({
      title: "Plain upload",
      description: "body",
      privacyStatus: "public",
      tags: [],
      madeForKids: false,
    });
  });

  it("a category YouTube does not assign is refused with its reason", async () => {
    const refused = await caught(() =>
      adapter.publish(session(), { ...postOf("Bad category", [video()]), options: { category_id: "9999" } }),
    );
    expect(refused).toMatchObject({ kind: "refused", status: 400 });
    expect((refused as Error).message).toMatch(/invalidCategoryId/);
  });
});

describe("YouTube: first comment", () => {
  it("asks for youtube.force-ssl by default, which commenting needs", () => {
    expect(YOUTUBE_DEFAULT_SCOPES).toContain("https://www.googleapis.com/auth/youtube.force-ssl");
  });

  it("comments on the new video as the channel, once, even when the publish runs again", async () => {
    const run = stepped({ ...postOf("With a comment", [video()]), firstComment: "Chapters: 0:00 intro" });
    const published = await adapter.publish(session(), run.post);
    const made = fake.videos.at(-1)!;
    const comment = fake.comments.at(-1)!;
    expect(comment).toMatchObject({
      videoId: made.id,
      channelId: ada.channel!.id,
      text: "Chapters: 0:00 intro",
    });
    expect(published).toEqual({
      id: made.id,
      permalink: `https://www.youtube.com/watch?v=${made.id}`,
      firstComment: {
        status: "published",
        permalink: `https://www.youtube.com/watch?v=${made.id}&lc=${comment.id}`,
        error: null,
      },
    });
    const videos = fake.videos.length;
    const again = await adapter.publish(session(), run.again());
    expect(again).toEqual(published);
    expect(fake.videos.length).toBe(videos);
    expect(fake.comments.filter((c) => c.videoId === made.id)).toHaveLength(1);
  });

  it("after the upload's last answer is lost, the retry finds the video through its session and comments once", async () => {
    const run = stepped({ ...postOf("Answer lost", [video()]), firstComment: "Once" });
    wire.loseNext(/^PUT \/upload\/youtube\/v3\/videos\?.*upload_id=/);
    const lost = await caught(() => adapter.publish(session(), run.post));
    expect(lost).toMatchObject({ kind: "retry" });
    const again = await adapter.publish(session(), run.again());
    const made = fake.videos.filter((v) => v.title === "Answer lost");
    expect(made).toHaveLength(1);
    expect(again.id).toBe(made[0]!.id);
    expect(fake.comments.filter((c) => c.videoId === made[0]!.id).map((c) => c.text)).toEqual(["Once"]);
  });

  it("a grant without youtube.force-ssl uploads, and the comment fails saying what to allow", async () => {
    const narrow = adapterWith({
      scopes: YOUTUBE_DEFAULT_SCOPES.filter((s) => !s.endsWith("force-ssl")),
    });
    const grant = await connectByConsent(narrow, `${fake.url}/o/oauth2/consent`);
    const published = await narrow.publish(sessionOf(grant), {
      ...postOf("No comment scope", [video()]),
      firstComment: "Not allowed",
    });
    expect(fake.videos.at(-1)!.id).toBe(published.id);
    expect(published.firstComment).toMatchObject({ status: "failed", permalink: null });
    expect(published.firstComment!.error).toMatch(/lacks youtube\.force-ssl.*connect the account again/);
  });

  it("a video made for kids has comments off: it stands, the comment fails with YouTube's reason", async () => {
    const published = await adapter.publish(session(), {
      ...postOf("For kids", [video()]),
      options: { made_for_kids: true },
      firstComment: "Hello",
    });
    expect(published.firstComment).toMatchObject({ status: "failed" });
    expect(published.firstComment!.error).toMatch(/commentsDisabled/);
  });
});
