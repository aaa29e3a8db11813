import type { Store } from "@socialpub/core";
import { SAMPLE_MP4, SAMPLE_PNG } from "@socialpub/core/testing";
import type { MetaFake, MetaFakeUser } from "@socialpub/networks/meta/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NetworkSettings } from "../../src/live/network-adapters.ts";
import type { FrontProxy } from "./front-proxy.ts";
import { grantCases } from "./grant-cases.ts";
import { type LiveOAuthServer, startLiveOAuthServer } from "./live-oauth-server.ts";
import { connectIn, lostAnswerCases, lostAnswerStage } from "./lost-answer-cases.ts";
import { grantInBrowser, until } from "./oauth-browser.ts";

/*
 * OAuth connect and publishing end to end for a network Meta runs (Threads, Instagram): a server on a
 * loopback port, behind the address it is told is its public one, connects an account through the
 * network fake's authorize page as a person does, then publishes through media containers the fake
 * makes and publishes. The fake fetches the post's image from the server's public media URL, as Meta
 * does.
 */

export interface MetaNetworkCase {
  platform: "threads" | "instagram";
  name: string;
  start(): Promise<MetaFake>;
  /** The server's addresses and app settings for this network, pointed at the fake (its API at `api`). */
  addresses(fake: MetaFake, app: { clientId: string; clientSecret: string }, api?: string): NetworkSettings;
  /** Whether the network publishes text alone. */
  textOnly: boolean;
  /** The media type the network gives a post made from a video (Threads VIDEO, Instagram REELS). */
  videoType: string;
}

export function describeMetaNetwork(c: MetaNetworkCase, liveKey: string): void {
  let fake: MetaFake;
  let front: FrontProxy;
  let store: Store;
  let userId: string;
  let alice: MetaFakeUser;
  let mediaId: string;
  let live: LiveOAuthServer;

  beforeAll(async () => {
    fake = await c.start();
    const app = fake.addApp();
    alice = fake.addUser({ username: "alice_ships", followers: 321 });
    fake.signIn(alice);
    live = await startLiveOAuthServer(liveKey, c.addresses(fake, app), { allowPrivateWebhookUrls: true });
    ({ front, store, userId } = live);
  }, 60_000);

  afterAll(async () => {
    await live?.close();
    await fake?.close();
  });

  const call = (method: string, path: string, body?: unknown) => live.call(method, path, body);

  const targetOf = async (postId: string) => (await call("GET", `/posts/${postId}/targets`)).body.data[0];

  // Meta gives no refresh token: a removed app shows as the token refused on the next publish.
  const cases = grantCases(
    {
      platform: c.platform,
      post: () => ({ media: mediaId }),
      limit: {
        useUp: () => {
          fake.postsPerDay = fake.postsOf(alice).length;
        },
        restore: () => {
          fake.postsPerDay = fake.shape.postsPerDay;
        },
        error: /limit of posts per 24 hours for this account is used up/,
      },
      revokeAccess: () => fake.revokeAccess(alice),
      refusedError: new RegExp(
        `${c.name} does not accept the account's token any more.*reconnect the ${c.name} account`,
      ),
      secrets: () => fake.tokens.map((t) => t.token),
    },
    () => live,
  );

  async function connect() {
    const started = await call("POST", "/accounts/connect", { platform: c.platform });
    expect(started.status).toBe(201);
    return started.body as { authorize_url: string; state: string };
  }

  const upload = (bytes: Uint8Array<ArrayBuffer>, type: string) => live.upload(bytes, type);

  const publish = (caption: string) =>
    call("POST", "/posts", { caption, platforms: [c.platform], media: mediaId });

  describe(`${c.name}: OAuth connect and live publishing`, () => {
    it("a connect answers the authorize URL (the registered redirect URL, comma-separated scopes, no PKCE); declining connects nothing", async () => {
      const started = await connect();
      const url = new URL(started.authorize_url);
      expect(url.origin + url.pathname).toBe(`${fake.url}/oauth/authorize`);
      expect(url.searchParams.get("redirect_uri")).toBe(
        `${front.url}/api/v1/accounts/callback/${c.platform}`,
      );
      expect(url.searchParams.get("scope")).toMatch(/^[a-z_]+(,[a-z_]+)+$/);
      expect(url.searchParams.get("code_challenge")).toBeNull();
      const declined = await grantInBrowser(started.authorize_url, "deny");
      expect(declined.status).toBe(400);
      expect((await call("GET", "/accounts")).body.data).toEqual([]);
    });

    it("granting access connects the account: the code traded for a long-lived token, sealed", async () => {
      const page = await grantInBrowser((await connect()).authorize_url);
      expect(page.status, page.html).toBe(200);
      expect(page.html).toMatch(/@alice_ships is connected/);
      const [account] = (await call("GET", "/accounts")).body.data;
      expect(account).toMatchObject({ platform: c.platform, handle: "@alice_ships", health: "healthy" });
      expect(
        fake.tokenRequests.map((r: { grantType: string; status: number }) => [r.grantType, r.status]),
      ).toEqual([
        ["authorization_code", 200],
        [fake.shape.exchangeGrant, 200],
      ]);
      const stored = await store.getAccount(userId, "live", c.platform);
      expect(stored!.credentials).toMatch(/^v1\./);
      for (const t of fake.tokens) expect(stored!.credentials).not.toContain(t.token);
      expect((await store.listEvents(userId)).map((e) => e.type)).toEqual(["account.connected"]);
    });

    it("publishes with an image the network fetches from the public media URL (container, then publish)", async () => {
      mediaId = await upload(SAMPLE_PNG, "image/png");
      const res = await publish("With a picture");
      expect((await targetOf(res.body.id)).error).toBeNull();
      expect(res).toMatchObject({ status: 201, body: { status: "published" } });
      const post = fake.posts.at(-1)!;
      expect(post).toMatchObject({ userId: alice.id, text: "With a picture", mediaType: "IMAGE" });
      expect(post.mediaUrl).toMatch(new RegExp(`^${front.url}/api/v1/media/${mediaId}/content/[\\w-]{32}$`));
      const target = await targetOf(res.body.id);
      expect(target.permalink).toBe(post.permalink);
      expect((await store.getTargets(res.body.id))[0]!.publish_step).toBeNull();
    });

    it(
      c.textOnly ? "publishes text alone" : "refuses text alone (the network needs an image or video)",
      async () => {
        const res = await call("POST", "/posts", { caption: "Just words", platforms: [c.platform] });
        if (c.textOnly) {
          expect(res).toMatchObject({ status: 201, body: { status: "published" } });
          expect(fake.posts.at(-1)).toMatchObject({ text: "Just words", mediaType: "TEXT" });
        } else {
          expect(res.status).toBe(400);
          expect(res.body.error).toMatch(new RegExp(`${c.platform} needs media`));
        }
      },
    );

    it("media the network cannot fetch is refused, not retried", async () => {
      const before = fake.posts.length;
      const res = await call("POST", "/posts", {
        caption: "Broken media",
        platforms: [c.platform],
        media: `${front.url}/media/med_doesnotexist/content`,
      });
      const target = await targetOf(res.body.id);
      expect(target.status).toBe("failed");
      expect(fake.posts.length).toBe(before);
    });

    it("publishes a video: the container stays IN_PROGRESS while the network processes it, and is published once FINISHED", async () => {
      const video = await upload(SAMPLE_MP4, "video/mp4");
      const before = fake.containers.size;
      fake.holdContainers = true;
      const answer = call("POST", "/posts", { caption: "A clip", platforms: [c.platform], media: video });
      const held = await until(
        async () => [...fake.containers.values()].slice(before),
        (made) => made.length > 0,
      );
      expect(held).toHaveLength(1);
      expect(held[0]!.status).toBe("IN_PROGRESS");
      const posted = fake.posts.length;
      fake.release();
      const res = await answer;
      expect(res).toMatchObject({ status: 201, body: { status: "published" } });
      expect(fake.posts.length).toBe(posted + 1);
      expect(fake.posts.at(-1)).toMatchObject({ text: "A clip", mediaType: c.videoType });
      expect(fake.posts.at(-1)!.mediaUrl).toMatch(new RegExp(`/api/v1/media/${video}/content/`));
    });

    it("a video the network cannot use (container ERROR) fails the target with the network's words, never retried", async () => {
      const video = await upload(SAMPLE_MP4, "video/mp4");
      const before = fake.containers.size;
      const posted = fake.posts.length;
      fake.holdContainers = true;
      const answer = call("POST", "/posts", {
        caption: "A broken clip",
        platforms: [c.platform],
        media: video,
      });
      const [container] = await until(
        async () => [...fake.containers.values()].slice(before),
        (made) => made.length > 0,
      );
      container!.status = "ERROR";
      container!.errorMessage = "The video's audio codec is not supported.";
      fake.holdContainers = false;
      const res = await answer;
      const target = await targetOf(res.body.id);
      expect(target.status).toBe("failed");
      expect(target.error).toBe(
        `${c.name} could not make the post from its media (${c.name} said: The video's audio codec is not supported.).`,
      );
      expect(fake.posts.length).toBe(posted);
      expect(fake.publishCalls.filter((id) => id === container!.id)).toEqual([]);
    });

    it(cases.limit.name, cases.limit.run);

    it("throttling (error 17 with X-Business-Use-Case-Usage) waits as long as the network says", async () => {
      fake.throttledCalls = 1;
      const res = await publish("While throttled");
      const target = await targetOf(res.body.id);
      expect(target.status).toBe("pending");
      expect(target.error).toMatch(/request limit .* reached; the post waits about 15 minutes/);
    });

    it("a grant ending within 7 days turns the account expiring when it is next published to", async () => {
      fake.longLivedSeconds = 3 * 24 * 3600;
      expect((await grantInBrowser((await connect()).authorize_url)).status).toBe(200);
      expect((await publish("Still fine")).body.status).toBe("published");
      expect((await call("GET", "/accounts")).body.data[0]).toMatchObject({ health: "expiring" });
    });

    for (const c of [cases.refused, cases.secrets]) it(c.name, c.run);
  });

  // The publish's answer lost after the network made the post: the retry resumes from the saved
  // container, which says PUBLISHED, and finds the post among the account's recent posts.
  describe(`${c.name}: an answer lost`, () => {
    let picture: string;
    const s = lostAnswerStage(
      liveKey,
      async () => {
        const fake = await c.start();
        fake.signIn(fake.addUser({ username: "lost_answers" }));
        return fake;
      },
      (fake, api) => c.addresses(fake, fake.addApp(), api),
      async (live) => {
        await connectIn(live, c.platform);
        picture = await live.upload(SAMPLE_PNG, "image/png");
      },
      { allowPrivateWebhookUrls: true },
    );

    const lost = lostAnswerCases(
      {
        platform: c.platform,
        creates:
          c.platform === "threads" ? /^\/v[\d.]+\/\d+\/threads_publish$/ : /^\/v[\d.]+\/\d+\/media_publish$/,
        body: () => ({ media: picture }),
        caption: (label) => label,
        postsFrom: (caption) => s.fake.posts.filter((p) => p.text === caption).map((p) => p.permalink),
        readBacks: () => s.fake.listings.length,
      },
      () => s.live,
      () => s.proxy,
    );
    it(lost.made.name, lost.made.run, 60_000);
  });
}
