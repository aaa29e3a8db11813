import { MEDIA_REQUIRED_NETWORKS, NETWORK_IDS, VIDEO_REQUIRED_NETWORKS } from "@socialpub/core";
import { describe, expect, it } from "vitest";
import { defaultIdempotencyKey } from "../src/idempotency.ts";
import { choosePlatforms, describeLeftOut } from "../src/platforms.ts";

describe("platforms", () => {
  it("without media, the networks that need media are left out and the rest kept in order", () => {
    const choice = choosePlatforms(["instagram", "x", "youtube", "bluesky"], []);
    expect(choice.platforms).toEqual(["x", "bluesky"]);
    expect(choice.leftOut).toEqual([
      { platform: "instagram", reason: "needs-media" },
      { platform: "youtube", reason: "needs-media" },
    ]);
  });

  it("the networks left out are exactly the contract's media-only networks", () => {
    const choice = choosePlatforms(NETWORK_IDS, []);
    expect(choice.leftOut.map((l) => l.platform).sort()).toEqual([...MEDIA_REQUIRED_NETWORKS].sort());
  });

  it("with a video, or media whose kind the URL does not tell, every network is kept", () => {
    for (const media of [
      "https://example.com/clip.mp4",
      "https://example.com/m/123",
      "med_01J00000000000000000000000",
    ]) {
      expect(choosePlatforms(NETWORK_IDS, [{ ref: media }])).toEqual({
        platforms: [...NETWORK_IDS],
        leftOut: [],
      });
    }
  });

  it("with an image, exactly the contract's video-only networks are left out", () => {
    const choice = choosePlatforms(NETWORK_IDS, [{ ref: "https://example.com/banner.PNG?v=2" }]);
    expect(choice.leftOut).toEqual(
      VIDEO_REQUIRED_NETWORKS.map((platform) => ({ platform, reason: "needs-video" })),
    );
    expect(choice.leftOut.map((l) => l.platform)).toEqual(["youtube"]);
    expect(describeLeftOut({ platform: "youtube", reason: "needs-video" })).toMatch(
      /YouTube takes videos only/,
    );
  });

  it("with several media, a network that cannot carry them is left out, its limit named", () => {
    const images = ["a", "b", "c", "d", "e"].map((n) => ({ ref: `https://example.com/${n}.png` }));
    const choice = choosePlatforms(["x", "bluesky", "instagram", "linkedin", "pinterest", "youtube"], images);
    // X and Bluesky take 4 images, Pinterest's carousel 5; YouTube takes a video only.
    expect(choice.platforms).toEqual(["instagram", "linkedin", "pinterest"]);
    expect(choice.leftOut).toEqual([
      { platform: "x", reason: "too-much-media" },
      { platform: "bluesky", reason: "too-much-media" },
      { platform: "youtube", reason: "needs-video" },
    ]);
    expect(describeLeftOut({ platform: "x", reason: "too-much-media" })).toBe(
      "X takes at most 4 images or 1 video in one post, fewer than the `media` input lists: it was left out. List fewer items to include it.",
    );
    // An image and a video together: only networks that mix kinds keep them.
    const mixed = choosePlatforms(
      ["x", "instagram", "telegram"],
      [{ ref: "https://example.com/a.png" }, { ref: "https://example.com/b.mp4" }],
    );
    expect(mixed.platforms).toEqual(["instagram", "telegram"]);
  });

  it("a left-out network's message says how to include it", () => {
    expect(describeLeftOut({ platform: "tiktok", reason: "needs-media" })).toMatch(/TikTok .*`media`/);
    expect(describeLeftOut({ platform: "x", reason: "not-connected" })).toMatch(/X is not connected/);
  });
});

describe("default idempotency key", () => {
  it("depends on repository, release and networks, not on the order of the networks", () => {
    const key = defaultIdempotencyKey("octo/app", 42, ["x", "bluesky"]);
    expect(key).toBe("github-release/octo/app/42/bluesky,x");
    expect(defaultIdempotencyKey("octo/app", 42, ["bluesky", "x"])).toBe(key);
    expect(defaultIdempotencyKey("octo/app", 43, ["x", "bluesky"])).not.toBe(key);
    expect(defaultIdempotencyKey("octo/lib", 42, ["x", "bluesky"])).not.toBe(key);
    expect(defaultIdempotencyKey("octo/app", 42, ["x"])).not.toBe(key);
  });

  it("with `platforms` left empty, names no network, so it survives accounts being connected or not", () => {
    expect(defaultIdempotencyKey("octo/app", 42, "connected")).toBe("github-release/octo/app/42/connected");
    expect(defaultIdempotencyKey("octo/app", 42, "connected")).not.toBe(
      defaultIdempotencyKey("octo/app", 42, ["x", "bluesky"]),
    );
  });

  it("stays within the service's 255 printable characters for the longest names", () => {
    const key = defaultIdempotencyKey(`${"o".repeat(39)}/${"r".repeat(100)}`, 123456789012, [...NETWORK_IDS]);
    expect(key).toMatch(/^[\x20-\x7e]{1,255}$/);
    expect(key).toMatch(/^github-release\/[0-9a-f]{64}$/);
  });
});
