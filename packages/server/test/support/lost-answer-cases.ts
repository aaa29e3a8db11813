import type { NetworkId } from "@socialpub/core";
import { SAMPLE_PNG } from "@socialpub/core/testing";
import { afterAll, beforeAll, expect } from "vitest";
import { HoldingProxy } from "./holding-proxy.ts";
import { type LiveOAuthServer, startLiveOAuthServer } from "./live-oauth-server.ts";
import { grantInBrowser, until } from "./oauth-browser.ts";

/*
 * The cases of an answer lost on a network that takes no key of ours, so a retry finds out by reading
 * the account's recent posts back: the server publishes through a HoldingProxy in front of the
 * network's fake, which keeps back the request that makes the post (`creates`), and the attempt runs
 * out of time with its outcome unknown. Either the network made the post and only its answer was lost
 * (the retry finds it and publishes the target with it: one post, its permalink), or the request never
 * reached the network (the retry finds nothing and sends it again: still one post). The server runs
 * with LOST_ANSWER_PUBLISHING, so the attempt gives up and the retry comes within seconds.
 */

/** An attempt gives up after 3 s, and is retried 200 ms later. */
export const LOST_ANSWER_PUBLISHING = { attemptTimeoutMs: 3_000, retryDelaysMs: [200, 200, 200, 200] };

/** A network's fake with the proxy the server reaches its API through, and the server. */
export interface LostAnswerStage<F> {
  fake: F;
  proxy: HoldingProxy;
  live: LiveOAuthServer;
}

/**
 * Starts `fake` behind a proxy and a server with live key `liveKey` on it for the tests of one
 * `describe`, and stops them after. `addresses` names the server's settings for the network, given the
 * fake and the proxy's address; `connect` connects the account (and whatever else the cases need).
 */
export function lostAnswerStage<F extends { url: string; close(): Promise<void> }>(
  liveKey: string,
  start: () => Promise<F>,
  addresses: (fake: F, api: string) => Parameters<typeof startLiveOAuthServer>[1],
  connect: (live: LiveOAuthServer, fake: F) => Promise<void>,
  options: { allowPrivateWebhookUrls?: boolean } = {},
): LostAnswerStage<F> {
  const s = {} as LostAnswerStage<F>;
  beforeAll(async () => {
    s.fake = await start();
    s.proxy = await HoldingProxy.start(s.fake.url);
    s.live = await startLiveOAuthServer(liveKey, addresses(s.fake, s.proxy.url), {
      ...options,
      publishing: LOST_ANSWER_PUBLISHING,
    });
    await connect(s.live, s.fake);
  }, 60_000);
  afterAll(async () => {
    await s.live?.close();
    await s.proxy?.close();
    await s.fake?.close();
  });
  return s;
}

/** Connects `platform`'s account through the network's consent page (`grant`). */
export async function connectIn(live: LiveOAuthServer, platform: string, grant = grantInBrowser) {
  const started = await live.call("POST", "/accounts/connect", { platform });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const page = await grant(started.body.authorize_url);
  expect(page.status, page.html).toBe(200);
}

export interface LostAnswerNetwork {
  platform: NetworkId;
  /** The requests that make a post (with or without an image), as the proxy sees their path. */
  creates: RegExp;
  /** What every post to the network carries beside its caption: media, where the network needs one. */
  body?: () => Record<string, unknown>;
  /** A caption the network posts from `label` (Reddit: a title line and a body). */
  caption(label: string): string;
  /** The permalinks of the posts the network holds that were made from `caption`. */
  postsFrom(caption: string): string[];
  /** How many times the account's recent posts were read back. */
  readBacks(): number;
  /** A video the network takes, where the case of a video post is run too. */
  video?: Uint8Array<ArrayBuffer>;
}

export interface LostAnswerCase {
  name: string;
  run(): Promise<void>;
}

export function lostAnswerCases(
  n: LostAnswerNetwork,
  live: () => LiveOAuthServer,
  proxy: () => HoldingProxy,
): Record<"made" | "madeWithImage" | "neverSent", LostAnswerCase> & { madeWithVideo?: LostAnswerCase } {
  /**
   * Publishes `caption` with the request that makes the post held (passed on to the network, or not),
   * checks that the target ends published with exactly one post on the network after reading the
   * account's posts back, and answers the target.
   */
  async function publishLosing(caption: string, passOn: boolean, media?: string) {
    const p = proxy();
    p.held.splice(0);
    p.holdOnly = n.creates;
    p.passOn = passOn;
    p.hold = true;
    const reads = n.readBacks();
    const posted = live().call("POST", "/posts", {
      caption,
      platforms: [n.platform],
      ...n.body?.(),
      ...(media && { media }),
    });
    try {
      await p.heldOne();
    } finally {
      p.hold = false;
      p.passOn = true;
    }
    const { body } = await posted;
    const target = await until(
      async () => (await live().call("GET", `/posts/${body.id}/targets`)).body.data[0],
      (t) => t.status === "published" || t.status === "failed",
    );
    expect(target.status, target.error).toBe("published");
    expect(n.readBacks()).toBeGreaterThan(reads);
    const made = n.postsFrom(caption);
    expect(made).toHaveLength(1);
    expect(target.permalink).toBe(made[0]);
  }

  return {
    made: {
      name: "an answer lost after the network made the post: the retry finds it, and the network holds it once",
      run: () => publishLosing(n.caption(`Made, answer lost ${Date.now()}`), true),
    },
    madeWithImage: {
      name: "the same with an image: the post the image went into is found by its text",
      async run() {
        const media = await live().upload(SAMPLE_PNG, "image/png");
        await publishLosing(n.caption(`An image, answer lost ${Date.now()}`), true, media);
      },
    },
    ...(n.video && {
      madeWithVideo: {
        name: "the same with a video: the post the video went into is found by its text",
        async run() {
          const media = await live().upload(n.video!, "video/mp4");
          await publishLosing(n.caption(`A video, answer lost ${Date.now()}`), true, media);
        },
      },
    }),
    neverSent: {
      name: "a request lost before it reached the network: the retry finds nothing and sends it again, once",
      run: () => publishLosing(n.caption(`Lost on its way ${Date.now()}`), false),
    },
  };
}
