import type { Post } from "@socialpub/core";
import { describe, expect, it } from "vitest";
import type { Outcome } from "../src/announce.ts";
import { everyNetworkFailed, failedTargets, outputsFor, summaryFor } from "../src/report.ts";

const post: Post = {
  id: "post_1",
  caption: "",
  platforms: ["x", "bluesky"],
  status: "published",
  has_media: false,
  scheduled_at: null,
  published_at: 1,
  reach: 0,
  engagement_rate: 0,
};

const posted = (caption: string): Outcome => ({
  kind: "posted",
  repository: "octo/app",
  release: {
    id: 1,
    tag: "v1",
    name: "<b>v1</b> | big",
    body: "",
    url: "https://github.com/octo/app/releases/tag/v1",
    draft: false,
    prerelease: false,
    publishedAt: null,
  },
  caption: { text: caption, notesShortened: false, warnings: [] },
  captions: {},
  platforms: ["x", "bluesky"],
  leftOut: [{ platform: "tiktok", reason: "needs-media" }],
  hasMedia: false,
  idempotencyKey: "k",
  direct: false,
  post: { ...post, caption },
  replayed: false,
  targets: [
    {
      platform: "x",
      status: "published",
      text: caption,
      permalink: "https://x.test/1",
      error: null,
      published_at: 1,
      reach: 0,
      likes: 0,
      comments: 0,
      shares: 0,
      parts: [],
      media: [],
      first_comment: null,
      notes: [],
    },
    {
      platform: "bluesky",
      status: "failed",
      text: caption,
      permalink: null,
      error: "Rejected | by <network>",
      published_at: null,
      reach: 0,
      likes: 0,
      comments: 0,
      shares: 0,
      parts: [],
      media: [],
      first_comment: null,
      notes: [],
    },
  ],
});

describe("summary and outputs", () => {
  it("one table row per network, HTML and pipes shown as text", () => {
    const summary = summaryFor(posted("hello"));
    expect(summary).toContain("### Release announcement: octo/app &lt;b&gt;v1&lt;/b&gt; | big");
    expect(summary).toContain("| X | published | 5 / 280 | https://x.test/1 |");
    expect(summary).toContain("| Bluesky | failed | 5 / 300 | Rejected \\| by &lt;network&gt; |");
    expect(summary).toContain("| TikTok | left out |  | needs media: set the `media` input to include it |");
  });

  it("the caption is shown verbatim, even when it holds backticks", () => {
    expect(summaryFor(posted("run ```npm i``` now"))).toContain("````text\nrun ```npm i``` now\n````");
  });

  it("outputs and failed networks", () => {
    const outcome = posted("hello");
    expect(outputsFor(outcome)).toEqual({
      "post-id": "post_1",
      status: "published",
      platforms: "x,bluesky",
      caption: "hello",
      skipped: "tiktok",
      // Only networks with a permalink: Bluesky failed.
      permalinks: '{"x":"https://x.test/1"}',
    });
    expect(failedTargets(outcome)).toEqual(["Bluesky: Rejected | by <network>"]);
  });

  it("the step fails only when every network failed", () => {
    const partly = posted("hello");
    expect(everyNetworkFailed(partly)).toBeUndefined();
    if (partly.kind !== "posted" || partly.targets === null) throw new Error("unexpected outcome");
    const allFailed: Outcome = {
      ...partly,
      targets: partly.targets.map((t) => ({
        ...t,
        status: "failed" as const,
        error: t.error ?? "Account needs reconnecting.",
      })),
    };
    expect(everyNetworkFailed(allFailed)).toBe(
      "The post post_1 failed on every network: X: Account needs reconnecting.; Bluesky: Rejected | by <network>",
    );
    expect(everyNetworkFailed({ ...partly, targets: null })).toBeUndefined();
  });
});
