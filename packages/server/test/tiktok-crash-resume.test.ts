import { SAMPLE_MP4 } from "@socialpub/core/testing";
import { TikTokFake } from "@socialpub/networks/tiktok/fake";
import { describe, expect, it } from "vitest";
import { crashStage } from "./support/crash-stage.ts";
import { until } from "./support/oauth-browser.ts";

/*
 * A server process killed between the two steps of a TikTok post (the post started with video/init, its
 * video uploaded and its publish_id saved, TikTok still processing it) and started again on the same
 * database polls that publish_id: TikTok ends up with exactly one post and a single init.
 */

const LIVE_KEY = `sp_live_${"TikTokCrashBetweenInitAndStatus0".repeat(2)}`;
const TIKTOK = {
  platform: "tiktok",
  prefix: "TIKTOK",
  authPath: "/v2/auth/authorize/",
  start: () => TikTokFake.start(),
};

describe("tiktok: a crash between init and PUBLISH_COMPLETE", () => {
  it("resumes polling the saved publish_id after a restart and never starts a second post", {
    timeout: 240_000,
  }, async () => {
    const stage = await crashStage(TIKTOK, LIVE_KEY);
    const { fake } = stage;
    const alice = fake.addCreator({ username: "alice.tt" });
    fake.signIn(alice);
    let server = await stage.start();
    await stage.connect();

    // TikTok takes its time with the video: the server has started the post, saved its publish_id,
    // sent the video, and polls.
    fake.publishes.hold = true;
    const clip = new Uint8Array(256 * 1024);
    clip.set(SAMPLE_MP4);
    const media = await stage.upload(clip, "video/mp4");
    const request = stage
      .api("POST", "/posts", { caption: "Survives a crash", platforms: ["tiktok"], media })
      .catch(() => null);
    const polled = await until(
      async () => [...fake.publishes.statusReads.values()][0] ?? 0,
      (reads) => reads >= 2,
      60_000,
    );
    expect(polled).toBeGreaterThanOrEqual(2);
    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    await request;
    const [started] = fake.publishesOf(alice);
    expect(started).toMatchObject({ status: "PROCESSING_UPLOAD", received: clip.length });

    fake.publishes.release();
    server = await stage.start();
    const post = await stage.published();
    expect(fake.inits).toEqual([{ path: "/v2/post/publish/video/init/", code: "ok" }]);
    expect(fake.publishesOf(alice)).toHaveLength(1);
    expect(fake.publishesOf(alice)[0]).toMatchObject({
      publishId: started!.publishId,
      status: "PUBLISH_COMPLETE",
      title: "Survives a crash",
      privacy: "SELF_ONLY",
    });
    expect(await stage.permalink(post.id)).toBe("https://www.tiktok.com/@alice.tt");
    await server.stop();
  });
});
