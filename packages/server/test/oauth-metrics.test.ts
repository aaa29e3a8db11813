import type { NetworkId } from "@socialpub/core";
import { FakeClock, SAMPLE_MP4, SAMPLE_PNG } from "@socialpub/core/testing";
import { FacebookFake } from "@socialpub/networks/facebook/fake";
import { InstagramFake } from "@socialpub/networks/instagram/fake";
import { PinterestFake } from "@socialpub/networks/pinterest/fake";
import { RedditFake } from "@socialpub/networks/reddit/fake";
import { ThreadsFake } from "@socialpub/networks/threads/fake";
import { XFake } from "@socialpub/networks/x/fake";
import { YouTubeFake } from "@socialpub/networks/youtube/fake";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSettings, type LiveOAuthServer, startLiveOAuthServer } from "./support/live-oauth-server.ts";
import { grantInBrowser } from "./support/oauth-browser.ts";

/*
 * Figures of posts on the OAuth networks that report them, end to end: each network is connected
 * through its fake's consent page, a post is published, the fake is given the post's counts as the
 * network would report them, and when the server's clock reaches the first read (5 minutes after
 * publishing) the post's target shows them — read by the server's metrics reader, not by a request.
 * One server, one fake clock (tokens are issued by the fakes on the wall clock, which the fake clock
 * starts at and stays within minutes of).
 */

const LIVE_KEY = `sp_live_${"OAuthNetworkMetricsTestKey012345".repeat(2)}`;
const MINUTE = 60_000;

const clock = new FakeClock(Date.now());
let reddit: RedditFake;
let facebook: FacebookFake;
let threads: ThreadsFake;
let instagram: InstagramFake;
let youtube: YouTubeFake;
let pinterest: PinterestFake;
let x: XFake;
let live: LiveOAuthServer;

beforeAll(async () => {
  [reddit, facebook, threads, instagram, youtube, pinterest, x] = await Promise.all([
    RedditFake.start(),
    FacebookFake.start(),
    ThreadsFake.start(),
    InstagramFake.start(),
    YouTubeFake.start(),
    PinterestFake.start(),
    XFake.start(),
  ]);
  const redditApp = reddit.addApp();
  reddit.signIn(reddit.addUser({ name: "bea_ships" }));
  reddit.addSubreddit({ name: "socialpub", submissionType: "any", subscribers: 4321 });
  const facebookApp = facebook.addApp();
  facebook.signIn(facebook.addUser({ name: "Dee Maker", pages: [{ name: "Dee's Bakery", followers: 900 }] }));

  const threadsApp = threads.addApp();
  threads.signIn(threads.addUser({ username: "alice_ships", followers: 321 }));
  const instagramApp = instagram.addApp();
  instagram.signIn(instagram.addUser({ username: "alice_ships", followers: 321 }));
  const youtubeApp = youtube.addApp();
  youtube.signIn(youtube.addUser({ title: "Eve Films", handle: "@evefilms" }));

  const pinterestApp = pinterest.addApp();
  pinterest.signIn(pinterest.addUser({ username: "ada_pins", followers: 321, boards: ["Sketches"] }));

  const xApp = x.addApp();
  x.signIn(x.addUser({ username: "ada_ships" }));

  live = await startLiveOAuthServer(
    LIVE_KEY,
    {
      reddit: {
        apiUrl: reddit.url,
        authorizeUrl: reddit.url,
        userAgent: "server:socialpub-tests:0.1.0 (by /u/socialpub_ci)",
        ...appSettings(redditApp),
      },
      facebook: { apiUrl: facebook.url, authorizeUrl: facebook.url, ...appSettings(facebookApp) },
      threads: {
        apiUrl: threads.url,
        authorizeUrl: `${threads.url}/oauth/authorize`,
        ...appSettings(threadsApp),
      },
      instagram: {
        apiUrl: instagram.url,
        authorizeUrl: `${instagram.url}/oauth/authorize`,
        ...appSettings(instagramApp),
      },
      youtube: {
        apiUrl: youtube.url,
        authorizeUrl: `${youtube.url}/o/oauth2/v2/auth`,
        ...appSettings(youtubeApp),
      },
      pinterest: {
        apiUrl: pinterest.url,
        authorizeUrl: `${pinterest.url}/oauth/`,
        ...appSettings(pinterestApp),
      },
      x: { apiUrl: x.url, authorizeUrl: `${x.url}/i/oauth2/authorize`, ...appSettings(xApp) },
    },
    // Instagram fetches the post's image from this server's public media URL, on loopback here.
    { clock, allowPrivateWebhookUrls: true },
  );
}, 60_000);

afterAll(async () => {
  await live?.close();
  expect(pinterest?.specViolations ?? []).toEqual([]);
  expect(x?.specViolations ?? []).toEqual([]);
  await Promise.all([
    reddit?.close(),
    facebook?.close(),
    threads?.close(),
    instagram?.close(),
    youtube?.close(),
    pinterest?.close(),
    x?.close(),
  ]);
});

const uploadMedia = (kind: "image" | "video"): Promise<string> =>
  kind === "image" ? live.upload(SAMPLE_PNG, "image/png") : live.upload(SAMPLE_MP4, "video/mp4");

interface MetricsCase {
  network: NetworkId;
  connect: Record<string, unknown>;
  /** The post's media, for networks that take no text alone (Instagram: an image; YouTube: a video). */
  media?: "image" | "video";
  /** Sets the counts of the network's newest post on its fake. */
  report(): void;
  /** What the target shows after the read. */
  expected: { reach: number; likes: number; comments: number; shares: number };
}

const CASES: MetricsCase[] = [
  {
    network: "reddit",
    connect: { subreddit: "socialpub" },
    report: () => Object.assign(reddit.posts.at(-1)!, { score: 42, comments: 7, crossposts: 2 }),
    // Reddit shows an app no views: reach stays 0.
    expected: { reach: 0, likes: 42, comments: 7, shares: 2 },
  },
  {
    network: "facebook",
    connect: {},
    report: () => Object.assign(facebook.posts.at(-1)!, { reactions: 31, comments: 4, shares: 3 }),
    // Reach needs Page insights (read_insights), which the connect does not ask for.
    expected: { reach: 0, likes: 31, comments: 4, shares: 3 },
  },
  {
    network: "facebook",
    connect: {},
    media: "video",
    report: () => Object.assign(facebook.posts.at(-1)!, { reactions: 12, comments: 2, shares: 5 }),
    // A video is its own node: reactions and comments are read, Graph's Video has no shares.
    expected: { reach: 0, likes: 12, comments: 2, shares: 0 },
  },
  {
    network: "threads",
    connect: {},
    report: () => {
      threads.posts.at(-1)!.insights = { views: 1200, likes: 80, replies: 12, reposts: 5, quotes: 2 };
    },
    // Views as reach; reposts and quotes both as shares.
    expected: { reach: 1200, likes: 80, comments: 12, shares: 7 },
  },
  {
    network: "instagram",
    connect: {},
    media: "image",
    report: () => {
      instagram.posts.at(-1)!.insights = { reach: 950, likes: 64, comments: 9, shares: 4, saved: 11 };
    },
    expected: { reach: 950, likes: 64, comments: 9, shares: 4 },
  },
  {
    network: "youtube",
    connect: {},
    media: "video",
    report: () => {
      youtube.videos.at(-1)!.statistics = { viewCount: 250, likeCount: 12, commentCount: 5 };
    },
    // Views as reach; YouTube reports no shares.
    expected: { reach: 250, likes: 12, comments: 5, shares: 0 },
  },
  {
    network: "pinterest",
    connect: {},
    media: "image",
    report: () => {
      pinterest.pins.at(-1)!.analytics = {
        IMPRESSION: 510,
        SAVE: 14,
        TOTAL_COMMENTS: 3,
        TOTAL_REACTIONS: 22,
      };
    },
    // Impressions as reach, saves as shares.
    expected: { reach: 510, likes: 22, comments: 3, shares: 14 },
  },
  {
    network: "x",
    connect: {},
    report: () => {
      x.posts.at(-1)!.metrics = {
        impression_count: 700,
        like_count: 25,
        reply_count: 6,
        repost_count: 4,
        quote_count: 1,
      };
    },
    // Impressions as reach; reposts and quotes both as shares (public_metrics, one lookup).
    expected: { reach: 700, likes: 25, comments: 6, shares: 5 },
  },
];

describe("figures of posts on OAuth networks", () => {
  it.each(CASES)(
    "$network: the first read, 5 minutes after publishing, shows what the network reports",
    async (c) => {
      const started = await live.call("POST", "/accounts/connect", {
        platform: c.network,
        ...c.connect,
      });
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      const page = await grantInBrowser(started.body.authorize_url);
      expect(page.status, page.html).toBe(200);

      const post = await live.call("POST", "/posts", {
        caption: `Figures on ${c.network}\nread by the server`,
        platforms: [c.network],
        ...(c.media && { media: await uploadMedia(c.media) }),
      });
      expect(post.body.status, JSON.stringify(post.body)).toBe("published");
      c.report();
      const target = async () => (await live.call("GET", `/posts/${post.body.id}/targets`)).body.data[0];
      expect(await target()).toMatchObject({ reach: 0, likes: 0, comments: 0, shares: 0 });

      await clock.advance(5 * MINUTE);
      expect(await target()).toMatchObject(c.expected);
    },
    60_000,
  );

  it("the read an hour after publishing refreshes Reddit's one-hour token first, and figures only rise", async () => {
    const post = reddit.posts.at(-1)!;
    Object.assign(post, { score: 40, comments: 9, crossposts: 2 });
    const refreshes = () => reddit.oauth.tokenRequests.filter((r) => r.grantType === "refresh_token").length;
    const before = refreshes();
    await clock.advance(55 * MINUTE);
    expect(refreshes()).toBe(before + 1);
    const posts = (await live.call("GET", "/posts?limit=10")).body.data as {
      id: string;
      platforms: string[];
    }[];
    const id = posts.find((p) => p.platforms.includes("reddit"))!.id;
    // A score that fell (a downvote) leaves likes as they were; comments rose.
    expect((await live.call("GET", `/posts/${id}/targets`)).body.data[0]).toMatchObject({
      likes: 42,
      comments: 9,
      shares: 2,
    });
  }, 60_000);
});
