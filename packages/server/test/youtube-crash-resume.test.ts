import { YouTubeFake } from "@socialpub/networks/youtube/fake";
import { describe, expect, it } from "vitest";
import { crashStage } from "./support/crash-stage.ts";
import { until } from "./support/oauth-browser.ts";
import { sampleVideo } from "./support/sample-video.ts";

/*
 * A server process killed in the middle of a YouTube upload (the resumable session opened and saved,
 * part of the bytes sent) and started again on the same database resumes that session: it asks YouTube
 * where the session stands (`Content-Range: bytes *\/N`), sends only the rest, and the channel ends up
 * with exactly one video, from the one session. Killed sooner, while YouTube opened the session and
 * before its answer came (so nothing was saved), the restarted server reads the channel's uploads back,
 * finds no video of the post, and uploads it: one video, from a second session.
 */

const LIVE_KEY = `sp_live_${"CrashInTheMiddleOfAYouTubeUpload".repeat(2)}`;
const HELD_BYTES = 100 * 1024;
const YOUTUBE = {
  platform: "youtube",
  prefix: "YOUTUBE",
  authPath: "/o/oauth2/v2/auth",
  start: () => YouTubeFake.start(),
};

const VIDEO = sampleVideo(400 * 1024);

describe("youtube: a crash between opening the upload session and its last byte", () => {
  it("resumes the saved session after a restart and makes one video", { timeout: 240_000 }, async () => {
    const stage = await crashStage(YOUTUBE, LIVE_KEY);
    const { fake } = stage;
    const ada = fake.addUser({ title: "Ada Ships", handle: "@adaships" });
    fake.signIn(ada);
    let server = await stage.start();
    await stage.connect();
    const media = await stage.upload(VIDEO, "video/mp4");

    // YouTube takes the first bytes of the upload and then goes quiet: the server waits on its PUT.
    fake.holdUploads(HELD_BYTES);
    const request = stage
      .api("POST", "/posts", { caption: "Survives a crash\nUploaded once.", platforms: ["youtube"], media })
      .catch(() => null);
    const held = await until(
      async () => [...fake.sessions.values()][0]?.received.length ?? 0,
      (bytes) => bytes >= HELD_BYTES,
      60_000,
    );
    expect(held).toBe(HELD_BYTES);
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    await request;
    expect(fake.videos).toEqual([]);
    const [session] = [...fake.sessions.values()];

    fake.release();
    server = await stage.start();
    const post = await stage.published();
    expect(fake.sessions.size).toBe(1);
    expect(fake.videosOf(ada)).toHaveLength(1);
    expect(fake.videosOf(ada)[0]).toMatchObject({
      sessionId: session!.id,
      title: "Survives a crash",
      description: "Uploaded once.",
      bytes: VIDEO.length,
    });
    // The first PUT (held, answered to no one after the kill); then the restarted server asked where
    // the session stood and sent only what YouTube lacked.
    expect(fake.puts.map((p) => [p.range, p.status])).toEqual([
      [`bytes 0-${VIDEO.length - 1}/${VIDEO.length}`, 503],
      [`bytes */${VIDEO.length}`, 308],
      [`bytes ${HELD_BYTES}-${VIDEO.length - 1}/${VIDEO.length}`, 201],
    ]);
    expect(await stage.permalink(post.id)).toBe(
      `https://www.youtube.com/watch?v=${fake.videosOf(ada)[0]!.id}`,
    );
    await server.stop();
  });
});

describe("youtube: a crash while the upload session was opened", () => {
  it("reads the channel's uploads back after a restart, finds none, and makes one video", {
    timeout: 240_000,
  }, async () => {
    const stage = await crashStage(YOUTUBE, LIVE_KEY);
    const { fake } = stage;
    const ada = fake.addUser({ title: "Ada Ships", handle: "@adaships" });
    fake.signIn(ada);
    let server = await stage.start();
    await stage.connect();
    const media = await stage.upload(VIDEO, "video/mp4");

    // YouTube opens the session; its answer never comes, and the server is killed waiting for it.
    fake.holdSessionOpens();
    const request = stage
      .api("POST", "/posts", { caption: "Cut off early\nUploaded once.", platforms: ["youtube"], media })
      .catch(() => null);
    await until(
      async () => fake.sessions.size,
      (opened) => opened === 1,
      60_000,
    );
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    await request;
    fake.release();
    const [lost] = [...fake.sessions.values()];

    server = await stage.start();
    const post = await stage.published();
    // Asked first: the channel's uploads since the post was made, none of them from it.
    expect(fake.playlistReads.length).toBeGreaterThan(0);
    expect(fake.playlistReads[0]).toMatchObject({
      part: "snippet",
      playlistId: `UU${ada.channel!.id.slice(2)}`,
    });
    expect(fake.sessions.size).toBe(2);
    expect(fake.videosOf(ada)).toHaveLength(1);
    const [made] = fake.videosOf(ada);
    expect(made).toMatchObject({
      title: "Cut off early",
      description: "Uploaded once.",
      bytes: VIDEO.length,
    });
    expect(made!.sessionId).not.toBe(lost!.id);
    expect(await stage.permalink(post.id)).toBe(`https://www.youtube.com/watch?v=${made!.id}`);
    await server.stop();
  });
});
