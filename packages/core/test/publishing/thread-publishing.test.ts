import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { NetworkError, type PublishInput } from "../../src/networks/adapter.ts";
import type { MediaFetch } from "../../src/publishing/media-fetch.ts";
import { publishThread } from "../../src/publishing/thread.ts";
import { SAMPLE_PNG } from "../../src/testing/index.ts";
import { type LiveService, liveService, targetsOf } from "./helpers/live-service.ts";
import { ScriptedAdapter } from "./helpers/scripted-adapter.ts";

/*
 * Rich posts through a live network (decisions.md "Rich posts"): the adapter is given every part's
 * text and media (fetched, with alt text), the first comment, the poll and its network's options; a
 * thread that fails part way keeps what was published, and a retry continues from the first part not
 * published, never sending one twice.
 */

let server: Server;
let port: number;
const agent = new Agent({
  connect: {
    lookup: (_host, options, callback) =>
      options.all ? callback(null, [{ address: "127.0.0.1", family: 4 }]) : callback(null, "127.0.0.1", 4),
  },
});
/** Every host is the local server, which serves the same PNG at any path. */
const routedFetch: MediaFetch = async (url, init) =>
  (await undiciFetch(url, {
    redirect: "manual",
    signal: init.signal,
    dispatcher: agent,
  })) as unknown as Response;

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(SAMPLE_PNG));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await agent.close();
});

let live: (LiveService & { adapters: ScriptedAdapter[] }) | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

const start = (withFind = true) =>
  liveService((clock) => [new ScriptedAdapter("x", clock, { withFind })], {
    service: {
      allowPrivateWebhookUrls: false,
      lookupHost: async () => ["93.184.216.34"],
      mediaFetch: routedFetch,
    },
  });

/** A network that threads through publishThread; `fail(index, attempt)` makes a part's send fail. */
function threading(sent: string[], fail: (index: number) => NetworkError | null) {
  return (post: PublishInput) =>
    publishThread("x", post, {
      send: async (part) => {
        const error = fail(part.index);
        if (error) throw error;
        sent.push(part.text);
        return { id: `id-${part.index}`, permalink: `https://x.example/status/${part.index}` };
      },
      find: async () => null,
      comment: async () => ({ id: "c", permalink: "https://x.example/status/comment" }),
    });
}

describe("rich posts through a live network", () => {
  it("the adapter gets every part's text and fetched media with alt text, the first comment, the poll-less options; the target records each part", async () => {
    live = await start();
    const [x] = live.adapters as [ScriptedAdapter];
    const sent: string[] = [];
    x.script.push(threading(sent, () => null));
    const media = (n: number) => `http://media.example:${port}/photo-${n}.png`;
    const post = await live.user.createPost({
      caption: "One",
      platforms: ["x"],
      media: [{ url: media(1), alt: "First photo" }, media(2)],
      thread: [{ caption: "Two", media: [{ url: media(3), alt: "Third photo" }] }],
      first_comment: "More at https://example.com",
      options: { x: { reply_settings: "following" }, linkedin: { visibility: "PUBLIC" } },
    });
    expect([post.status, (await targetsOf(live.user, post.id)).x.error]).toEqual(["published", null]);
    const input = x.publishes[0]!.post;
    expect(input.text).toBe("One");
    expect(input.media.map((m) => [m.contentType, m.alt])).toEqual([
      ["image/png", "First photo"],
      ["image/png", undefined],
    ]);
    expect(input.thread?.map((p) => [p.text, p.media.map((m) => m.alt)])).toEqual([["Two", ["Third photo"]]]);
    expect(input.firstComment).toBe("More at https://example.com");
    expect(input.options).toEqual({ reply_settings: "following" });
    expect(input.poll).toBeUndefined();
    expect(sent).toEqual(["One", "Two"]);
    const target = (await targetsOf(live.user, post.id)).x;
    expect(target.parts).toEqual([
      { text: "One", status: "published", permalink: "https://x.example/status/0" },
      { text: "Two", status: "published", permalink: "https://x.example/status/1" },
    ]);
    expect(target.first_comment).toEqual({
      status: "published",
      permalink: "https://x.example/status/comment",
      error: null,
    });
    expect(target.media.map((m: { alt: string | null }) => m.alt)).toEqual([
      "First photo",
      null,
      "Third photo",
    ]);
  });

  it("a part that fails stops the thread: what was published stays listed, and a retry continues from the part that failed without sending the first again", async () => {
    live = await start();
    const [x] = live.adapters as [ScriptedAdapter];
    const sent: string[] = [];
    let failures = 0;
    const flaky = threading(sent, (index) =>
      index === 1 && failures++ === 0 ? new NetworkError("x", "refused", "X: this part was refused") : null,
    );
    x.script.push(flaky, flaky);
    const post = await live.user.createPost({
      caption: "One",
      platforms: ["x"],
      thread: [{ caption: "Two" }, { caption: "Three" }],
    });
    expect(post.status).toBe("draft");
    const failed = (await targetsOf(live.user, post.id)).x;
    expect(failed.status).toBe("failed");
    expect(failed.error).toBe("part 2 of 3: X: this part was refused");
    expect(failed.parts.map((p: { status: string }) => p.status)).toEqual(["published", "failed", "pending"]);
    expect(failed.parts[0].permalink).toBe("https://x.example/status/0");

    const res = await live.user.post(`/posts/${post.id}/retry`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("published");
    expect(sent).toEqual(["One", "Two", "Three"]);
    const target = (await targetsOf(live.user, post.id)).x;
    expect(target.parts.map((p: { status: string; permalink: string }) => [p.status, p.permalink])).toEqual([
      ["published", "https://x.example/status/0"],
      ["published", "https://x.example/status/1"],
      ["published", "https://x.example/status/2"],
    ]);
    expect(target.permalink).toBe("https://x.example/status/0");
  });

  it("a draft published again after a thread stopped part way continues it: the parts published are not sent again", async () => {
    live = await start();
    const [x] = live.adapters as [ScriptedAdapter];
    const sent: string[] = [];
    let failures = 0;
    const flaky = threading(sent, (index) =>
      index === 2 && failures++ === 0 ? new NetworkError("x", "refused", "X: this part was refused") : null,
    );
    x.script.push(flaky, flaky);
    const post = await live.user.createPost({
      caption: "One",
      platforms: ["x"],
      thread: [{ caption: "Two" }, { caption: "Three" }],
    });
    expect(post.status).toBe("draft");
    const res = await live.user.post(`/posts/${post.id}/publish`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("published");
    expect(sent).toEqual(["One", "Two", "Three"]);
    const target = (await targetsOf(live.user, post.id)).x;
    expect(target.parts.map((p: { status: string }) => p.status)).toEqual([
      "published",
      "published",
      "published",
    ]);
  });

  it("a part whose outcome was unknown is looked for, not failed: the retry resumes from the saved step", async () => {
    live = await start(false);
    const [x] = live.adapters as [ScriptedAdapter];
    const sent: string[] = [];
    let failures = 0;
    const lost = threading(sent, (index) =>
      index === 1 && failures++ === 0 ? new NetworkError("x", "unknown", "X: no answer came") : null,
    );
    x.script.push(lost, lost);
    const post = await live.user.createPost({
      caption: "One",
      platforms: ["x"],
      thread: [{ caption: "Two" }],
    });
    // The step says how far the thread got, so the network is asked again later rather than failed.
    const pending = (await targetsOf(live.user, post.id)).x;
    expect(pending.parts.map((p: { status: string }) => p.status)).toEqual(["published", "pending"]);
    await live.clock.advance(10 * 60_000);
    const target = (await targetsOf(live.user, post.id)).x;
    expect(target.status).toBe("published");
    expect(sent).toEqual(["One", "Two"]);
  });
});
