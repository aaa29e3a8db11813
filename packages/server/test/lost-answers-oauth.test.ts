import { SAMPLE_PNG } from "@socialpub/core/testing";
import { LINKEDIN_DEFAULT_SCOPES } from "@socialpub/networks";
import { FacebookFake } from "@socialpub/networks/facebook/fake";
import { LinkedInFake } from "@socialpub/networks/linkedin/fake";
import { PinterestFake } from "@socialpub/networks/pinterest/fake";
import { RedditFake } from "@socialpub/networks/reddit/fake";
import { XFake } from "@socialpub/networks/x/fake";
import { describe, expect, it } from "vitest";
import { appSettings, type LiveOAuthServer, type startLiveOAuthServer } from "./support/live-oauth-server.ts";
import {
  connectIn,
  type LostAnswerCase,
  type LostAnswerNetwork,
  type LostAnswerStage,
  lostAnswerCases,
  lostAnswerStage,
} from "./support/lost-answer-cases.ts";
import { grantInBrowser, until } from "./support/oauth-browser.ts";
import { sampleVideo } from "./support/sample-video.ts";
import { grantOnXConsentPage } from "./support/x-consent.ts";

/*
 * Never twice, on the OAuth networks that take no key of ours: a server behind its public address
 * publishes through a proxy in front of each network's fake that keeps back the request making the
 * post, so the attempt ends with its outcome unknown. The retry reads the account's recent posts back
 * from the network (support/lost-answer-cases.ts): a post made with its answer lost is found and the
 * target published with it; a request that never arrived is sent again. Either way the network holds
 * the post once. One row per network: how its fake starts and the server reaches it, how an account
 * connects, how its posts are read back, and what else its read-back must get right.
 */

const LIVE_KEY = `sp_live_${"LostAnswersOnOAuthNetworks012345".repeat(2)}`;

type Settings = Parameters<typeof startLiveOAuthServer>[1];
type Cases = ReturnType<typeof lostAnswerCases>;

/** One network's row of the table. */
interface LostAnswerRow<F extends { url: string; close(): Promise<void> }> {
  title: string;
  start(): Promise<F>;
  /** The server's settings for the network, its API reached at `api` (the proxy). */
  settings(fake: F, api: string): Settings;
  connect(live: LiveOAuthServer, fake: F): Promise<void>;
  network(s: LostAnswerStage<F>): LostAnswerNetwork;
  /** The cases run (default: every case the network has). */
  cases?(cases: Cases): LostAnswerCase[];
  /** The network's own tests besides the cases. */
  more?(s: LostAnswerStage<F>, network: LostAnswerNetwork): void;
}

/** Keeps each row's fake type (a table of rows of different fakes). */
const row = <F extends { url: string; close(): Promise<void> }>(r: LostAnswerRow<F>) =>
  r as unknown as LostAnswerRow<{ url: string; close(): Promise<void> }>;

/** LinkedIn's commentary as the member wrote it: the little-text escapes taken off. */
const unescaped = (commentary: string) => commentary.replace(/\\(.)/g, "$1");

/** Every pin carries an image, uploaded once the account is connected. */
let picture = "";

const ROWS = [
  row<XFake>({
    title: "X: an answer lost is looked for on the account's timeline",
    async start() {
      const x = await XFake.start();
      x.signIn(x.addUser({ username: "lost_answers" }));
      return x;
    },
    settings: (x, api) => ({
      x: { apiUrl: api, authorizeUrl: `${x.url}/i/oauth2/authorize`, ...appSettings(x.addApp()) },
    }),
    connect: (live) => connectIn(live, "x", grantOnXConsentPage),
    network: (s) => ({
      platform: "x",
      creates: /^\/2\/tweets$/,
      // A link, a bare domain and ampersands, which X's timeline gives back wrapped (t.co, the domain
      // with a scheme) and escaped (&amp;).
      caption: (label) => `${label} & the notes: https://example.com/notes?a=1&b=2 or example.org`,
      postsFrom: (caption) =>
        s.fake.posts.filter((p) => p.text === caption).map((p) => `https://x.com/i/web/status/${p.id}`),
      readBacks: () => s.fake.timelineReads.length,
    }),
    more(s) {
      it("reads the timeline as X documents it, from when the post could have been made", () => {
        expect(s.fake.timelineReads.length).toBeGreaterThan(0);
        for (const read of s.fake.timelineReads) {
          expect(read).toMatchObject({ max_results: "100", exclude: "replies,retweets" });
          expect(Date.now() - Date.parse(read.start_time!)).toBeLessThan(5 * 60_000);
        }
        expect(s.fake.specViolations).toEqual([]);
      });
    },
  }),
  row<LinkedInFake>({
    title: "LinkedIn: an answer lost is looked for among the member's posts",
    async start() {
      const linkedin = await LinkedInFake.start();
      linkedin.signIn(linkedin.addMember({ name: "Lost Answers" }));
      return linkedin;
    },
    settings: (linkedin, api) => ({
      linkedin: {
        apiUrl: api,
        authorizeUrl: linkedin.url,
        ...appSettings(linkedin.addApp()),
        // Reading a member's posts back takes r_member_social, which LinkedIn grants to approved apps.
        scopes: [...LINKEDIN_DEFAULT_SCOPES, "r_member_social"],
      },
    }),
    connect: (live) => connectIn(live, "linkedin"),
    network: (s) => ({
      platform: "linkedin",
      creates: /^\/rest\/posts$/,
      // Characters LinkedIn's little text reserves: the post keeps them escaped.
      caption: (label) => `${label} (beta) #launch`,
      postsFrom: (caption) =>
        s.fake.posts
          .filter((p) => unescaped(p.commentary) === caption)
          .map((p) => `https://www.linkedin.com/feed/update/${p.urn}/`),
      readBacks: () => s.fake.finderReads.length,
    }),
    more(s) {
      it("without r_member_social the post is not sent again: the target fails as outcome unknown, saying why", async () => {
        for (const grant of s.fake.oauth.grants)
          grant.scopes = grant.scopes.filter((g) => g !== "r_member_social");
        s.proxy.held.splice(0);
        s.proxy.holdOnly = /^\/rest\/posts$/;
        s.proxy.hold = true;
        const caption = `Not allowed to look ${Date.now()}`;
        const posted = s.live.call("POST", "/posts", { caption, platforms: ["linkedin"] });
        await s.proxy.heldOne();
        s.proxy.hold = false;
        const { body } = await posted;
        const target = await until(
          async () => (await s.live.call("GET", `/posts/${body.id}/targets`)).body.data[0],
          (t) => t.status === "published" || t.status === "failed",
        );
        expect(target.status).toBe("failed");
        expect(target.error).toMatch(
          /^LinkedIn: outcome unknown: check the network \(LinkedIn does not let this app read the member's posts back .*r_member_social.*SOCIALPUB_LINKEDIN_SCOPES.*it was not sent again/,
        );
        expect(s.fake.posts.filter((p) => p.commentary === caption)).toHaveLength(1);
      });
    },
  }),
  row<FacebookFake>({
    title: "Facebook: an answer lost is looked for among the Page's posts",
    async start() {
      const facebook = await FacebookFake.start();
      facebook.signIn(facebook.addUser({ name: "Lost Answers", pages: [{ name: "Lost Answers Bakery" }] }));
      return facebook;
    },
    settings: (facebook, api) => ({
      facebook: { apiUrl: api, authorizeUrl: facebook.url, ...appSettings(facebook.addApp()) },
    }),
    connect: (live) => connectIn(live, "facebook"),
    network: (s) => ({
      platform: "facebook",
      // A text post (the feed), a photo and a video: a caption and a description are the post's message.
      creates: /^\/v23\.0\/\d+\/(feed|photos|videos)$/,
      caption: (label) => `${label}: bread & rolls`,
      postsFrom: (caption) =>
        s.fake.posts
          .filter((p) => p.message === caption)
          .map((p) =>
            p.video
              ? `https://www.facebook.com/${p.pageId}/videos/${p.id}/`
              : `https://www.facebook.com/${p.id}`,
          ),
      readBacks: () => s.fake.postReads.length,
      video: sampleVideo(60 * 1024),
    }),
  }),
  row<PinterestFake>({
    title: "Pinterest: an answer lost is found on the board",
    async start() {
      const fake = await PinterestFake.start();
      fake.signIn(fake.addUser({ username: "lost_pins", boards: ["Found again"] }));
      return fake;
    },
    settings: (fake, api) => ({
      pinterest: { apiUrl: api, authorizeUrl: `${fake.url}/oauth/`, ...appSettings(fake.addApp()) },
    }),
    async connect(live) {
      await connectIn(live, "pinterest");
      picture = await live.upload(SAMPLE_PNG, "image/png");
    },
    network: (s) => ({
      platform: "pinterest",
      creates: /^\/v5\/pins$/,
      body: () => ({ media: picture }),
      // A title line and a description: both must match what the pin holds.
      caption: (label) => `${label}\nThe pin's description, under its title.`,
      postsFrom: (caption) =>
        s.fake.pins
          .filter((p) => p.description === caption)
          .map((p) => `https://www.pinterest.com/pin/${p.id}/`),
      readBacks: () => s.fake.boardReads.length,
    }),
    // Every pin carries an image (`body`), so the case with an image is the first one again.
    cases: (cases) => [cases.made, cases.neverSent],
    more(s) {
      it("reads the board 100 pins a page, as pinterest-openapi.json describes it", () => {
        expect(s.fake.boardReads.length).toBeGreaterThan(0);
        for (const read of s.fake.boardReads) expect(read).toMatchObject({ page_size: "100" });
        expect(s.fake.specViolations).toEqual([]);
      });
    },
  }),
  row<RedditFake>({
    title: "Reddit: an answer lost is looked for among the account's submitted posts",
    async start() {
      const reddit = await RedditFake.start();
      reddit.signIn(reddit.addUser({ name: "lost_answers" }));
      reddit.addSubreddit({ name: "socialpub", submissionType: "any", subscribers: 10 });
      return reddit;
    },
    settings: (reddit, api) => ({
      reddit: {
        apiUrl: api,
        authorizeUrl: reddit.url,
        userAgent: "server:socialpub-tests:0.1.0 (by /u/socialpub_ci)",
        ...appSettings(reddit.addApp()),
      },
    }),
    async connect(live) {
      const started = await live.call("POST", "/accounts/connect", {
        platform: "reddit",
        subreddit: "socialpub",
      });
      expect((await grantInBrowser(started.body.authorize_url)).status).toBe(200);
    },
    network: (s) => ({
      platform: "reddit",
      creates: /^\/api\/submit$/,
      // The first line is the title, the rest the body (an image post keeps the title only).
      caption: (label) => `${label}\nThe body, & <more>.`,
      postsFrom: (caption) => {
        const [title, body] = caption.split("\n");
        return s.fake.posts
          .filter((p) => p.title === title && (p.kind === "image" || p.text === body))
          .map((p) => `https://www.reddit.com${p.permalink}`);
      },
      readBacks: () => s.fake.submittedReads.length,
    }),
    more(s, network) {
      it("a link post is found by its address", async () => {
        const link = lostAnswerCases(
          {
            ...network,
            caption: (label) => `${label}\nhttps://example.com/notes?a=1&b=2`,
            postsFrom: (caption) => {
              const [title, url] = caption.split("\n");
              return s.fake.posts
                .filter((p) => p.kind === "link" && p.title === title && p.url === url)
                .map((p) => `https://www.reddit.com${p.permalink}`);
            },
          },
          () => s.live,
          () => s.proxy,
        );
        await link.made.run();
      });

      it("the same title and body in another subreddit is not the lost post: it is sent again", async () => {
        const caption = `Posted elsewhere ${Date.now()}\nThe same body.`;
        const [title, body] = caption.split("\n") as [string, string];
        const user = [...s.fake.users.values()][0]!;
        s.fake.addSubreddit({ name: "elsewhere", submissionType: "any", subscribers: 1 });
        s.fake.posts.push({
          id: "elsewhere1",
          userId: user.id,
          subreddit: "elsewhere",
          kind: "self",
          title,
          text: body,
          url: null,
          permalink: "/r/elsewhere/comments/elsewhere1/post/",
          gallery: [],
          flairId: null,
          nsfw: false,
          spoiler: false,
          createdAt: Date.now(),
          score: 1,
          comments: 0,
          crossposts: 0,
        });
        const elsewhere = lostAnswerCases(
          {
            ...network,
            caption: () => caption,
            postsFrom: () =>
              s.fake.posts
                .filter((p) => p.subreddit === "socialpub" && p.title === title && p.text === body)
                .map((p) => `https://www.reddit.com${p.permalink}`),
          },
          () => s.live,
          () => s.proxy,
        );
        await elsewhere.neverSent.run();
      });
    },
  }),
];

for (const r of ROWS) {
  describe(r.title, () => {
    const s = lostAnswerStage(LIVE_KEY, () => r.start(), r.settings, r.connect);
    const network = r.network(s);
    const cases = lostAnswerCases(
      network,
      () => s.live,
      () => s.proxy,
    );
    for (const c of r.cases?.(cases) ?? Object.values(cases)) it(c.name, c.run, 60_000);
    r.more?.(s, network);
  });
}
