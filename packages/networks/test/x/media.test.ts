import type { Credentials, MediaFile, PublishStep } from "@socialpub/core";
import { SAMPLE_MP4 } from "@socialpub/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { xAdapter } from "../../src/index.ts";
import { XFake, type XFakeUser } from "../../src/x/fake/server.ts";
import { connectByConsent } from "../helpers/oauth-consent.ts";
import { caught, fileOf, postOf, sessionOf } from "../helpers/session.ts";

/*
 * X videos and animated GIFs through the adapter against the X fake, without a server: the chunked
 * upload (initialize, append in segments, finalize, STATUS until processed) and then the post, every
 * request checked against x-openapi.json; and a saved step resumed rather than uploaded again.
 */

let fake: XFake;
let ada: XFakeUser;
let app: { clientId: string; clientSecret: string };
let credentials: Credentials;
const SEGMENT = 64 * 1024;

const video = (size: number): MediaFile => {
  const bytes = new Uint8Array(size).map((_, i) => i % 251);
  bytes.set(SAMPLE_MP4, 0);
  return { bytes, contentType: "video/mp4", filename: "clip.mp4", url: "http://127.0.0.1:1/clip.mp4" };
};

const adapter = () =>
  xAdapter({
    apiUrl: fake.url,
    authorizeUrl: `${fake.url}/i/oauth2/authorize`,
    ...app,
    segmentBytes: SEGMENT,
  });

/** A post whose saved steps are recorded, starting from `step`. */
function recorded(text: string, media: MediaFile[], step: PublishStep | null = null) {
  const steps: PublishStep[] = [];
  const post = postOf(text, media, AbortSignal.timeout(60_000));
  post.step = step;
  post.saveStep = async (s) => {
    steps.push(s);
  };
  return { post, steps };
}

beforeAll(async () => {
  fake = await XFake.start();
  app = fake.addApp();
  ada = fake.addUser({ username: "ada_ships" });
  fake.signIn(ada);
  credentials = await connectByConsent(adapter(), `${fake.url}/i/oauth2/consent`);
}, 60_000);

afterAll(() => fake?.close());

describe("x adapter: video and animated GIF", { timeout: 60_000 }, () => {
  it("uploads a video in segments, waits for X's processing, and posts it; the steps are saved on the way", async () => {
    const file = video(150 * 1024);
    const { post, steps } = recorded("A video", [file]);
    const published = await adapter().publish(sessionOf(credentials), post);
    const made = fake.posts.at(-1)!;
    expect(published).toEqual({ id: made.id, permalink: `https://x.com/i/web/status/${made.id}` });
    const upload = fake.chunked.uploads.get(made.mediaIds[0]!)!;
    expect(upload).toMatchObject({
      category: "tweet_video",
      type: "video/mp4",
      totalBytes: file.bytes.length,
    });
    expect(upload.state).toBe("succeeded");
    expect(fake.chunked.appends.filter((a) => a.id === upload.id).map((a) => a.index)).toEqual([0, 1, 2]);
    expect(steps.map((s) => [s.x_media, s.stage])).toEqual([
      [upload.id, "appending"],
      [upload.id, "finalized"],
      [upload.id, "posting"],
    ]);
    expect(JSON.stringify(steps)).not.toContain(String(credentials.access_token));
    expect(fake.specViolations).toEqual([]);
  });

  it("posts a GIF alone as an animated GIF (tweet_gif)", async () => {
    const gif = fileOf("image/gif", "loop.gif", 20 * 1024);
    await adapter().publish(sessionOf(credentials), postOf("A loop", [gif]));
    const upload = fake.chunked.uploads.get(fake.posts.at(-1)!.mediaIds[0]!)!;
    expect(upload).toMatchObject({ category: "tweet_gif", type: "image/gif", state: "succeeded" });
  });

  it("resumes a finalized upload without sending it again, and an appending one into the same upload", async () => {
    const file = video(100 * 1024);
    const first = recorded("Resumed once", [file]);
    const stop = new AbortController();
    first.post.signal = stop.signal;
    fake.chunked.holdProcessing = true;
    const held = caught(() => adapter().publish(sessionOf(credentials), first.post));
    // Processing does not finish for this attempt, which is stopped once it saved the finalized
    // upload: that step is what a restart would read.
    const finalized = await waitFor(() => first.steps.find((s) => s.stage === "finalized"));
    stop.abort();
    expect(await held).toMatchObject({ kind: "retry" });
    const appends = fake.chunked.appends.length;
    const uploads = fake.chunked.uploads.size;
    fake.chunked.holdProcessing = false;
    const resumed = recorded("Resumed once", [file], finalized);
    await adapter().publish(sessionOf(credentials), resumed.post);
    expect(fake.chunked.appends.length).toBe(appends);
    expect(fake.chunked.uploads.size).toBe(uploads);
    expect(fake.posts.at(-1)!.mediaIds).toEqual([finalized.x_media]);

    const other = video(90 * 1024);
    const opened = recorded("Appending resumed", [other]);
    await adapter().publish(sessionOf(credentials), opened.post);
    const appending = opened.steps[0]!;
    expect(appending.stage).toBe("appending");
    const before = fake.chunked.uploads.size;
    // The same upload, taken up from "appending" (as after a crash mid-append): no new initialize.
    fake.chunked.uploads.get(String(appending.x_media))!.finalized = false;
    fake.chunked.uploads.get(String(appending.x_media))!.state = null;
    fake.posts.splice(-1, 1);
    const again = recorded("Appending resumed", [other], appending);
    await adapter().publish(sessionOf(credentials), again.post);
    expect(fake.chunked.uploads.size).toBe(before);
    expect(fake.posts.at(-1)!.mediaIds).toEqual([appending.x_media]);
  });

  it("uploads again when X has let a finalized upload go (nothing was posted with it)", async () => {
    const file = video(70 * 1024);
    const first = recorded("Expired upload", [file]);
    await adapter().publish(sessionOf(credentials), first.post);
    const finalized = first.steps.find((s) => s.stage === "finalized")!;
    fake.posts.splice(-1, 1);
    fake.chunked.expireAll();
    const again = recorded("Expired upload", [file], finalized);
    await adapter().publish(sessionOf(credentials), again.post);
    expect(fake.posts.at(-1)!.mediaIds).not.toEqual([finalized.x_media]);
    expect(again.steps[0]).toMatchObject({ stage: "appending" });
  });

  it("a post sent with its upload whose answer was lost is looked for on the timeline: found, it is the post", async () => {
    const file = video(60 * 1024);
    const sent = recorded(`Sent, answer lost ${Date.now()}`, [file]);
    const made = await adapter().publish(sessionOf(credentials), sent.post);
    const posting = sent.steps.at(-1)!;
    expect(posting).toMatchObject({ stage: "posting", sent_at: expect.any(Number) });
    const posts = fake.posts.length;
    const initialized = fake.chunked.uploads.size;

    const retry = recorded(sent.post.text, [file], posting);
    expect(await adapter().publish(sessionOf(credentials), retry.post)).toEqual(made);
    expect(fake.posts.length).toBe(posts);
    expect(fake.chunked.uploads.size).toBe(initialized);
    expect(retry.steps).toEqual([]);
  });

  it("a post sent with its upload that X never made is sent again with the same upload", async () => {
    const file = video(60 * 1024);
    const text = `Sent, never made ${Date.now()}`;
    // X refuses the post (its limit): the upload is finalized and nothing was posted.
    fake.postsPerWindow = 0;
    const first = recorded(text, [file]);
    expect(await caught(() => adapter().publish(sessionOf(credentials), first.post))).toMatchObject({
      kind: "retry",
    });
    fake.postsPerWindow = 100;
    const finalized = first.steps.at(-1)!;
    expect(finalized).toMatchObject({ stage: "finalized" });
    const initialized = fake.chunked.uploads.size;

    // As if the refusal had been lost on its way back: the step says the post went out.
    const retry = recorded(text, [file], { ...finalized, stage: "posting", sent_at: Date.now() });
    const published = await adapter().publish(sessionOf(credentials), retry.post);
    const made = fake.posts.filter((p) => p.text === text);
    expect(made).toHaveLength(1);
    expect(published.id).toBe(made[0]!.id);
    expect(made[0]!.mediaIds).toEqual([finalized.x_media]);
    expect(fake.chunked.uploads.size).toBe(initialized);
    expect(retry.steps.map((s) => s.stage)).toEqual(["finalized", "posting"]);
    expect(fake.specViolations).toEqual([]);
  });

  it("never sends again a post whose answer was lost at a time it did not note, and refuses what X cannot use in X's words", async () => {
    const file = video(60 * 1024);
    const posts = fake.posts.length;
    const lost = recorded("Lost answer", [file], {
      x_media: "123",
      size: file.bytes.length,
      stage: "posting",
      expires_at: 0,
    });
    expect(await caught(() => adapter().publish(sessionOf(credentials), lost.post))).toMatchObject({
      kind: "refused",
      message: expect.stringMatching(/outcome unknown: .*not sent again/),
    });

    fake.chunked.failProcessing = true;
    const failed = await caught(() =>
      adapter().publish(sessionOf(credentials), postOf("Broken video", [video(30 * 1024)])),
    );
    fake.chunked.failProcessing = false;
    expect(failed).toMatchObject({
      kind: "refused",
      message: expect.stringMatching(/X said: processing failed/),
    });

    const mixed = await caught(() =>
      adapter().publish(sessionOf(credentials), postOf("Mixed", [video(1024), fileOf("image/png", "a.png")])),
    );
    expect(mixed).toMatchObject({
      kind: "refused",
      message: expect.stringMatching(/one video and nothing else/),
    });
    const avi = await caught(() =>
      adapter().publish(sessionOf(credentials), postOf("AVI", [fileOf("video/x-msvideo", "a.avi")])),
    );
    expect(avi).toMatchObject({ kind: "refused", message: expect.stringMatching(/MP4 or MOV/) });
    expect(fake.posts.length).toBe(posts);
    expect(fake.specViolations).toEqual([]);
  });
});

/** Reads until `read` answers something (polled; the fake answers at once). */
async function waitFor<T>(read: () => T | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("the condition did not come true in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}
