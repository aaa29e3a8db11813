import type { AccountSession, MediaFile, NetworkAdapter } from "@socialpub/core";
import { NetworkError } from "@socialpub/core";
import { SAMPLE_MP4 } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { youtubeAdapter } from "../../src/index.ts";
import { YouTubeFake, type YouTubeFakeUser, type YouTubeFakeVideo } from "../../src/youtube/fake/server.ts";
import { type LosingFetch, losingFetch } from "../helpers/losing-fetch.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { postOf, sessionOf } from "../helpers/session.ts";

/*
 * YouTube's findPublished against its fake: the channel's uploads playlist read back for a video with
 * the title and description the adapter makes of the text, uploaded since the lost attempt could
 * publish, page by page and no further back than that.
 */

const MINUTE = 60_000;
const video = (): MediaFile => ({
  bytes: new Uint8Array(SAMPLE_MP4),
  contentType: "video/mp4",
  filename: "clip.mp4",
  url: "http://127.0.0.1:1/clip.mp4",
});

describe("YouTube: a lost attempt's video read back from the channel's uploads", () => {
  let fake: YouTubeFake;
  let wire: LosingFetch;
  let adapter: NetworkAdapter;
  let ada: YouTubeFakeUser;
  let account: AccountSession;

  beforeAll(async () => {
    fake = await YouTubeFake.start();
    const app = fake.addApp();
    ada = fake.addUser({ title: "Ada Ships" });
    fake.signIn(ada);
    wire = losingFetch();
    adapter = youtubeAdapter({
      apiUrl: fake.url,
      authorizeUrl: `${fake.url}/o/oauth2/v2/auth`,
      ...app,
      fetch: wire.fetch,
    });
    account = sessionOf(await connectByConsent(adapter, `${fake.url}/o/oauth2/consent`));
  });

  afterAll(() => fake?.close());

  const find = (text: string, since: number) =>
    adapter.findPublished!(account, { key: "3kaaaaaaaaaaa", text, since }, AbortSignal.timeout(15_000));
  const reads = () => fake.playlistReads.length;

  let handMade = 0;
  /** Videos on the channel as if uploaded by hand, `at` each. */
  function uploadedByHand(titles: string[], at: (i: number) => number, privacyStatus = "private") {
    for (const [i, title] of titles.entries()) {
      const made: YouTubeFakeVideo = {
        id: `hand${String(++handMade).padStart(7, "0")}`,
        channelId: ada.channel!.id,
        sessionId: "",
        title,
        description: "",
        requestedPrivacy: privacyStatus,
        privacyStatus,
        tags: [],
        categoryId: "22",
        madeForKids: false,
        bytes: 1,
        publishedAt: at(i),
        statistics: { viewCount: 0, likeCount: 0, commentCount: 0 },
      };
      fake.videos.push(made);
    }
  }

  it("finds a private video uploaded since, by the title and description made of the text", async () => {
    const text = "Launch day\nWhat shipped, and why.";
    const since = Date.now() - MINUTE;
    const published = await adapter.publish(account, postOf(text, [video()]));
    const [made] = fake.videosOf(ada);
    expect(made).toMatchObject({
      title: "Launch day",
      description: "What shipped, and why.",
      privacyStatus: "private",
    });
    expect(await find(text, since)).toEqual(published);
    expect(fake.playlistReads.at(-1)).toMatchObject({ part: "snippet", maxResults: "50" });
    expect(fake.playlistReads.at(-1)!.playlistId).toBe(`UU${ada.channel!.id.slice(2)}`);
    // Another text, or the same one looked for since after it was uploaded: not this video.
    expect(await find("Launch day\nWhat shipped.", since)).toBeNull();
    expect(await find(text, Date.now() + MINUTE)).toBeNull();
  });

  it("answers null when the session's opening was lost: no video was made, and sent again it is made once", async () => {
    const text = "Cut off while opening";
    const since = Date.now() - MINUTE;
    wire.loseNext(/^POST \/upload\/youtube\/v3\/videos\?/);
    const lost = await adapter.publish(account, postOf(text, [video()])).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(NetworkError);
    expect(await find(text, since)).toBeNull();
    const again = await adapter.publish(account, postOf(text, [video()]));
    expect(
      fake
        .videosOf(ada)
        .filter((v) => v.title === text)
        .map((v) => v.id),
    ).toEqual([again.id]);
  });

  it("reads page after page back to since, and stops at the first older upload", async () => {
    const now = Date.now();
    uploadedByHand(["The one", ...Array.from({ length: 60 }, (_, i) => `filler ${i}`)], (i) => now + i);
    const before = reads();
    const found = await find("The one", now - MINUTE);
    expect(found?.id).toBe(fake.videos.find((v) => v.title === "The one")!.id);
    expect(reads() - before).toBe(2);
    expect(fake.playlistReads.at(-1)!.pageToken).toBe("50");

    const again = reads();
    expect(await find("Not there", now + 10 * MINUTE)).toBeNull();
    expect(reads() - again).toBe(1);
  });

  it("fails as outcome unknown when more videos were uploaded since than it reads, or the text is empty", async () => {
    const now = Date.now();
    uploadedByHand(
      Array.from({ length: 110 }, (_, i) => `busy ${i}`),
      (i) => now + MINUTE + i,
    );
    const error = await find("Far back", now).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ kind: "refused" });
    expect((error as Error).message).toMatch(/^YouTube: outcome unknown: check the network/);

    const untitled = await find("  \n", now).catch((e: unknown) => e);
    expect(untitled).toMatchObject({ kind: "refused", message: expect.stringMatching(/file's name/) });
  });
});
