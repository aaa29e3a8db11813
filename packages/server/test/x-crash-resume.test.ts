import { XFake } from "@socialpub/networks/x/fake";
import { describe, expect, it } from "vitest";
import { crashStage } from "./support/crash-stage.ts";
import { until } from "./support/oauth-browser.ts";
import { sampleVideo } from "./support/sample-video.ts";

/*
 * A server process killed while X processes a video (the chunked upload finalized and saved on the
 * target, its status being polled) and started again on the same database resumes from the saved
 * upload: it sends none of the bytes again, asks X where processing stands, and posts once. One killed
 * after X made a post and before its answer came finds the post on the account's timeline when it
 * starts again, and does not post it twice.
 */

const LIVE_KEY = `sp_live_${"CrashWhileXProcessesTheVideo0123".repeat(2)}`;
const TEXT_KEY = `sp_live_${"CrashBeforeXAnsweredThePost01234".repeat(2)}`;
const X = { platform: "x", prefix: "X", authPath: "/i/oauth2/authorize", start: () => XFake.start() };

const VIDEO = sampleVideo(300 * 1024);

describe("x: a crash mid-publish", () => {
  it("resumes the saved upload after a restart and posts once", { timeout: 240_000 }, async () => {
    const stage = await crashStage(X, LIVE_KEY);
    const { fake } = stage;
    const ada = fake.addUser({ username: "ada_ships" });
    fake.signIn(ada);
    let server = await stage.start();
    await stage.connect();
    const media = await stage.upload(VIDEO, "video/mp4");

    // X takes its time processing: the server has uploaded and finalized the video, saved it, and polls.
    fake.chunked.holdProcessing = true;
    const request = stage
      .api("POST", "/posts", { caption: "Survives a crash", platforms: ["x"], media })
      .catch(() => null);
    const polled = await until(
      async () => fake.chunked.statusReads,
      (reads) => reads >= 2,
      60_000,
    );
    expect(polled).toBeGreaterThanOrEqual(2);
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    await request;
    expect(fake.posts).toEqual([]);
    const [upload] = [...fake.chunked.uploads.values()];
    const appends = fake.chunked.appends.length;

    fake.chunked.holdProcessing = false;
    server = await stage.start();
    const post = await stage.published();
    expect(fake.chunked.uploads.size).toBe(1);
    expect(fake.chunked.appends.length).toBe(appends);
    expect(fake.posts).toHaveLength(1);
    expect(fake.posts[0]).toMatchObject({ userId: ada.id, text: "Survives a crash", mediaIds: [upload!.id] });
    expect(await stage.permalink(post.id)).toBe(`https://x.com/i/web/status/${fake.posts[0]!.id}`);
    expect(fake.specViolations).toEqual([]);
    await server.stop();
  });

  it("finds a post X made before the server was killed, after a restart, and posts it once", {
    timeout: 240_000,
  }, async () => {
    const stage = await crashStage(X, TEXT_KEY);
    const { fake } = stage;
    const bo = fake.addUser({ username: "bo_ships" });
    fake.signIn(bo);
    let server = await stage.start();
    await stage.connect();

    // X makes the post and its answer never comes: the server is killed with the attempt in flight.
    fake.keepPostAnswers = true;
    const request = stage
      .api("POST", "/posts", { caption: "Made before the crash", platforms: ["x"] })
      .catch(() => null);
    await until(
      async () => fake.posts.length,
      (made) => made === 1,
      60_000,
    );
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    await request;
    fake.keepPostAnswers = false;

    server = await stage.start();
    const post = await stage.published();
    expect(fake.posts).toHaveLength(1);
    expect(fake.timelineReads.length).toBeGreaterThan(0);
    expect(await stage.permalink(post.id)).toBe(`https://x.com/i/web/status/${fake.posts[0]!.id}`);
    expect(fake.specViolations).toEqual([]);
    await server.stop();
  });
});
